import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { faissBench, type FaissBenchResult } from './faiss-bench.js';
import { ddxplusTexts, embeddedChunks, queryPatients } from './record-texts.js';
import { specsFor } from './phase-serve.js';
import { mb } from './stats.js';

/**
 * Bench phase for sizes too big for the whole stack here (1M): FAISS only, in process, no
 * Neo4j. Record texts are embedded chunk by chunk and streamed into the approximate
 * indexes; the exact top-10 (ground truth) is computed in JS over the same chunks, so no
 * flat FAISS copy of 1M × 512 floats is held beside them.
 */
export interface FaissPhaseInput {
  datasetDir: string;
  queriesDir: string;
  queryCount: number;
  records: number;
  kinds: string[];
}

export async function faissPhase(input: FaissPhaseInput): Promise<FaissBenchResult & { peakRssMb: number; embedMs: number }> {
  const embedder = new HashedEmbedder();
  const queries = await queryPatients({ dir: input.queriesDir, count: input.queryCount, seed: 424242 });
  const qv = (await embedder.embedDocuments(queries.map((q) => q.text))).map((v) => Float32Array.from(v));
  const specs = specsFor(input.records, input.kinds);
  let embedMs = 0;
  async function* timedChunks() {
    const it = embeddedChunks(ddxplusTexts(input.datasetDir), embedder, { chunk: 65_536, dim: embedder.dim })[Symbol.asyncIterator]();
    for (;;) {
      const t0 = performance.now();
      const next = await it.next();
      embedMs += performance.now() - t0;
      if (next.done) return;
      process.stderr.write(`  faiss: ${next.value.ids.length} more vectors\n`);
      yield next.value;
    }
  }
  const r = await faissBench({ dim: embedder.dim, chunks: timedChunks(), queries: qv, specs, k: 10, widerK: [32, 64] });
  return { ...r, embedMs: Math.round(embedMs), peakRssMb: mb(process.resourceUsage().maxRSS * 1024) };
}
