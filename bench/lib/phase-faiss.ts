import os from 'node:os';
import { dirname, join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { faissBench, parseIndexSpec, type FaissBenchResult } from './faiss-bench.js';
import { freshProcessMeasure, type FreshSearchRun } from './fresh-search.js';
import { queryPatients } from './record-texts.js';
import { mb } from './stats.js';
import { cachedEmbeddedChunks, cachedStridedRows } from './vector-cache.js';
import { trainSampleSize } from '../../src/adapters/faiss/vector-index.js';

/**
 * Bench phase for sizes too big for the whole stack here (1M): FAISS only, no Neo4j.
 * Record vectors come from the work dir's cache (embedded once, vector-cache.ts) and are
 * streamed into the indexes, built with every core (this phase is its own process, so it
 * sets OMP_NUM_THREADS before faiss-node loads); the exact top-10 is folded in JS over the
 * same chunks. Queries run as the server runs them: the saved index, loaded in a fresh
 * single-threaded process (fresh-search.ts).
 */
export interface FaissPhaseInput {
  datasetDir: string;
  queriesDir: string;
  queryCount: number;
  records: number;
  /** 'flat' | 'ivf[-npN]' | 'hnswM[-efcN][-efsN]' (faiss-bench.ts parseIndexSpec). */
  kinds: string[];
}

export type FaissPhaseResult = FaissBenchResult & {
  /** The larger of the build process's and the search processes' peak RSS. */
  peakRssMb: number;
  buildPeakRssMb: number;
  search: ({ name: string } & Omit<FreshSearchRun, 'rows'>)[];
  embedMs: number;
  vectorsFromCache: boolean;
  buildThreads: number;
};

/** efSearch values measured past each HNSW index's own (faiss-bench.ts). */
const EF_SWEEP = [32, 64, 96, 128, 192, 256];

export async function faissPhase(input: FaissPhaseInput): Promise<FaissPhaseResult> {
  const buildThreads = os.availableParallelism();
  process.env.OMP_NUM_THREADS = String(buildThreads); // read once, when faiss-node loads (native.ts)
  const embedder = new HashedEmbedder();
  const queries = await queryPatients({ dir: input.queriesDir, count: input.queryCount, seed: 424242 });
  const qv = (await embedder.embedDocuments(queries.map((q) => q.text))).map((v) => Float32Array.from(v));
  const specs = input.kinds.map((k) => parseIndexSpec(k, input.records));
  let embedMs = 0;
  let fromCache = false;
  async function* timedChunks() {
    const it = cachedEmbeddedChunks({ datasetDir: input.datasetDir, embedder, chunk: 65_536 })[Symbol.asyncIterator]();
    for (;;) {
      const t0 = performance.now();
      const next = await it.next();
      embedMs += performance.now() - t0;
      if (next.done) return;
      fromCache = next.value.fromCache;
      process.stderr.write(`  faiss: ${next.value.ids.length} more vectors${fromCache ? ' (cached)' : ''}\n`);
      yield next.value;
    }
  }
  const search: FaissPhaseResult['search'] = [];
  const measureWith = freshProcessMeasure(join(dirname(input.datasetDir), 'faiss-tmp'), (spec, run) => search.push({ name: spec.name, peakRssMb: run.peakRssMb, loadMs: run.loadMs }));
  // IVF trains on the product's sample (trainSampleSize rows spread over all records), read from the cache.
  // Counted as embedding time: on a first run this call embeds every record into the cache.
  const trainSample = async (nlist: number) => {
    const t0 = performance.now();
    const rows = await cachedStridedRows({ datasetDir: input.datasetDir, embedder, chunk: 65_536 }, trainSampleSize(nlist));
    embedMs += performance.now() - t0;
    return rows;
  };
  const r = await faissBench({ dim: embedder.dim, chunks: timedChunks(), queries: qv, specs, k: 10, widerK: EF_SWEEP, measureWith, trainSample });
  const buildPeakRssMb = mb(process.resourceUsage().maxRSS * 1024);
  return { ...r, embedMs: Math.round(embedMs), vectorsFromCache: fromCache, buildThreads, buildPeakRssMb, search, peakRssMb: Math.max(buildPeakRssMb, ...search.map((s) => s.peakRssMb)) };
}
