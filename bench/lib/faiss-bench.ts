import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { IndexKind } from '../../src/adapters/faiss/types.js';
import { ExactTopK, type TopK } from './exact-topk.js';
import { round, summarize } from './stats.js';

/**
 * FAISS build and query time, and recall@10 of the approximate indexes against exact
 * search, on record vectors streamed in chunks (so 1M × 512 never sits in JS memory
 * twice): each chunk is added to every index and folded into the exact top-k of every
 * query (blockwise brute force in JS, the ground truth). faiss-node cannot set efSearch /
 * nprobe; HNSW's efSearch is max(16, k), so searching k' > 10 and keeping the first 10 is
 * the one way to buy recall: it is reported as `hnsw@k'`.
 */
export interface IndexSpec {
  name: string;
  kind: IndexKind;
  nlist?: number;
  hnswM?: number;
}

export interface FaissBenchInput {
  dim: number;
  chunks: AsyncIterable<{ ids: string[]; vectors: Float32Array }>;
  queries: Float32Array[];
  specs: IndexSpec[];
  k: number;
  /** Extra k' for the HNSW indexes (search k', keep the top k). */
  widerK: number[];
}

export interface IndexFigures {
  name: string;
  buildMs: number;
  query: ReturnType<typeof summarize>;
  recallAt10: number;
  /** Recall counting a hit whose score ties the exact k-th score (duplicate texts) as correct. */
  recallTieAware: number;
}

export interface FaissBenchResult {
  vectors: number;
  exactJsMs: number;
  indexes: IndexFigures[];
}

export async function faissBench(input: FaissBenchInput): Promise<FaissBenchResult> {
  const built = input.specs.map((spec) => ({ spec, index: FaissVectorIndex.create({ kind: spec.kind, dim: input.dim, ...(spec.nlist ? { nlist: spec.nlist } : {}), ...(spec.hnswM ? { hnswM: spec.hnswM } : {}) }), ms: 0 }));
  const truth = input.queries.map(() => new ExactTopK(input.k));
  let n = 0;
  let exactMs = 0;
  for await (const chunk of input.chunks) {
    for (const b of built) {
      const t0 = performance.now();
      b.index.add(chunk.ids, chunk.vectors);
      b.ms += performance.now() - t0;
    }
    const t0 = performance.now();
    input.queries.forEach((q, i) => truth[i]!.scan(q, chunk.vectors, input.dim, chunk.ids));
    exactMs += performance.now() - t0;
    n += chunk.ids.length;
  }
  const indexes: IndexFigures[] = [];
  for (const b of built) {
    const wider = b.spec.kind === 'hnsw' ? [input.k, ...input.widerK] : [input.k];
    for (const kk of wider) indexes.push({ name: kk === input.k ? b.spec.name : `${b.spec.name}@k'${kk}`, buildMs: Math.round(b.ms), ...measure(b.index, input.queries, truth, input.k, kk) });
  }
  return { vectors: n, exactJsMs: Math.round(exactMs / Math.max(1, input.queries.length)), indexes };
}

function measure(index: FaissVectorIndex, queries: Float32Array[], truth: TopK[], k: number, kk: number) {
  const times: number[] = [];
  let strict = 0;
  let ties = 0;
  queries.forEach((q, i) => {
    const t0 = performance.now();
    const hits = index.search(q, kk).slice(0, k);
    times.push(performance.now() - t0);
    const exact = truth[i]!.sorted();
    const ids = new Set(exact.map((h) => h.id));
    const kth = exact[exact.length - 1]?.score ?? -Infinity;
    strict += hits.filter((h) => ids.has(h.id)).length / Math.max(1, exact.length);
    ties += Math.min(exact.length, hits.filter((h) => ids.has(h.id) || h.score >= kth - 1e-5).length) / Math.max(1, exact.length);
  });
  return { query: summarize(times), recallAt10: round(strict / queries.length, 4), recallTieAware: round(ties / queries.length, 4) };
}
