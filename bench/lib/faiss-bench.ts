import { defaultNlist, FaissVectorIndex, HNSW_DEFAULTS } from '../../src/adapters/faiss/vector-index.js';
import type { IndexKind } from '../../src/adapters/faiss/types.js';
import { ExactTopK, scanChunk } from './exact-topk.js';
import { round, summarize } from './stats.js';

/**
 * FAISS build and query time, and recall@10 of the approximate indexes against exact
 * search, on record vectors streamed in chunks (so 1M × 512 never sits in JS memory
 * twice): each chunk is added to every index and folded into the exact top-k of every
 * query (blockwise brute force in JS, the ground truth).
 *
 * HNSW is measured at its configured efSearch, then at each larger ef of `efSweep`:
 * searching k' = ef and keeping the first k is the same search as efSearch = ef with k
 * (FAISS uses max(efSearch, k) candidates), so one build gives the whole curve.
 */
export interface IndexSpec {
  name: string;
  kind: IndexKind;
  nlist?: number;
  hnswM?: number;
  hnswEfConstruction?: number;
  hnswEfSearch?: number;
  nprobe?: number;
}

export interface FaissBenchInput {
  dim: number;
  chunks: AsyncIterable<{ ids: string[]; vectors: Float32Array }>;
  queries: Float32Array[];
  specs: IndexSpec[];
  k: number;
  /** Extra efSearch values for the HNSW indexes (only those above the configured one are measured). */
  widerK: number[];
  /** Measure the queries elsewhere (e.g. a fresh single-threaded process on the saved index) instead of in process. */
  measureWith?: (index: FaissVectorIndex, spec: IndexSpec, plan: QueryPlan) => Promise<MeasuredRow[]>;
  /**
   * IVF k-means sample for a list count (row-major unit vectors), as the product's build
   * takes it: spread over the whole input (kg-build/build-indexes.ts). Absent: the first
   * chunk trains on itself, which at 1M is a fraction of the sample the build uses.
   */
  trainSample?: (nlist: number) => Promise<Float32Array>;
}

/** What to search, and the exact answers to score against. */
export interface QueryPlan {
  queries: Float32Array[];
  truth: { id: string; score: number }[][];
  k: number;
  /** k' per row: k itself, then the ef sweep. */
  rows: { name: string; kk: number }[];
}

export type MeasuredRow = { name: string; query: ReturnType<typeof summarize>; recallAt10: number; recallTieAware: number };

/** `recallTieAware` counts a hit whose score ties the exact k-th score (duplicate texts) as correct. */
export interface IndexFigures extends MeasuredRow {
  buildMs: number;
}

export interface FaissBenchResult {
  vectors: number;
  exactJsMs: number;
  indexes: IndexFigures[];
}

/** 'flat' | 'ivf[-np8]' (defaultNlist(n) lists) | 'hnsw32[-efc80][-efs64]' → an index spec. */
export function parseIndexSpec(kind: string, n: number): IndexSpec {
  const [head = '', ...opts] = kind.split('-');
  const opt = (prefix: string) => {
    const o = opts.find((x) => x.startsWith(prefix) && /^\d+$/.test(x.slice(prefix.length)));
    return o === undefined ? undefined : Number(o.slice(prefix.length));
  };
  if (head === 'flat') return { name: 'flat', kind: 'flat' };
  if (head.startsWith('ivf')) {
    const nlist = Number(head.slice(3)) || defaultNlist(n);
    const nprobe = opt('np');
    return { name: kind.replace(/^ivf\d*/, `ivf${nlist}`), kind: 'ivf', nlist, ...(nprobe ? { nprobe } : {}) };
  }
  if (!head.startsWith('hnsw')) throw new Error(`unknown FAISS index kind ${JSON.stringify(kind)}`);
  const m = Number(head.slice(4)) || HNSW_DEFAULTS.m;
  const efc = opt('efc') ?? HNSW_DEFAULTS.efConstruction;
  const efs = opt('efs') ?? HNSW_DEFAULTS.efSearch;
  return { name: `hnsw${m}-efc${efc}-efs${efs}`, kind: 'hnsw', hnswM: m, hnswEfConstruction: efc, hnswEfSearch: efs };
}

export async function faissBench(input: FaissBenchInput): Promise<FaissBenchResult> {
  const built = input.specs.map((spec) => ({ spec, index: FaissVectorIndex.create({ ...spec, dim: input.dim }), ms: 0 }));
  for (const b of built) {
    if (b.spec.kind !== 'ivf' || !input.trainSample || b.spec.nlist === undefined) continue;
    const sample = await input.trainSample(b.spec.nlist);
    const t0 = performance.now();
    b.index.train(sample);
    b.ms += performance.now() - t0;
  }
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
    scanChunk(truth, input.queries, chunk.vectors, input.dim, chunk.ids);
    exactMs += performance.now() - t0;
    n += chunk.ids.length;
  }
  const exact = truth.map((t) => t.sorted());
  const measureWith = input.measureWith ?? (async (index: FaissVectorIndex, _spec: IndexSpec, plan: QueryPlan) => measurePlan(index, plan));
  const indexes: IndexFigures[] = [];
  for (const b of built) {
    const plan: QueryPlan = { queries: input.queries, truth: exact, k: input.k, rows: planRows(b.spec, input.k, input.widerK) };
    for (const row of await measureWith(b.index, b.spec, plan)) indexes.push({ ...row, buildMs: Math.round(b.ms) });
  }
  return { vectors: n, exactJsMs: Math.round(exactMs / Math.max(1, input.queries.length)), indexes };
}

function planRows(spec: IndexSpec, k: number, sweep: number[]): QueryPlan['rows'] {
  if (spec.kind !== 'hnsw') return [{ name: spec.name, kk: k }];
  const base = Math.max(k, spec.hnswEfSearch ?? HNSW_DEFAULTS.efSearch);
  const graph = spec.name.replace(/-efs\d+$/, '');
  return [{ name: spec.name, kk: k }, ...sweep.filter((ef) => ef > base).map((ef) => ({ name: `${graph}@ef${ef}`, kk: ef }))];
}

/** Searches one query at a time (as the server does), timing each, and scores recall@k. */
export function measurePlan(index: Pick<FaissVectorIndex, 'search'>, plan: QueryPlan): MeasuredRow[] {
  return plan.rows.map(({ name, kk }) => {
    const times: number[] = [];
    let strict = 0;
    let ties = 0;
    plan.queries.forEach((q, i) => {
      const t0 = performance.now();
      const hits = index.search(q, kk).slice(0, plan.k);
      times.push(performance.now() - t0);
      const exact = plan.truth[i]!;
      const ids = new Set(exact.map((h) => h.id));
      const kth = exact[exact.length - 1]?.score ?? -Infinity;
      strict += hits.filter((h) => ids.has(h.id)).length / Math.max(1, exact.length);
      ties += Math.min(exact.length, hits.filter((h) => ids.has(h.id) || h.score >= kth - 1e-5).length) / Math.max(1, exact.length);
    });
    return { name, query: summarize(times), recallAt10: round(strict / plan.queries.length, 4), recallTieAware: round(ties / plan.queries.length, 4) };
  });
}
