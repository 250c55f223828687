/**
 * The masking annotation's retrieval probe for the build: the same rule as
 * src/gate/retrieval-probe.ts (the sentence alone retrieves a gold-disease record among its
 * top-m chunks at or above the similarity floor, the example's own record excluded), computed
 * over the DISTINCT chunk texts. Record renderings repeat the same templated finding lines, so
 * ~16k chunks of the DDXPlus sample are a few thousand texts; a chunk's similarity is its
 * text's, so ranking texts and expanding each to the records holding it is the flat index's
 * answer (ties aside, which FAISS orders arbitrarily too). Measured: a single-query FAISS flat
 * search took ~50 ms per sentence on the loaded build machine; this takes well under 1 ms.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import type { RetrievalProbe } from '../src/gate/masking-annotation.js';
import { DEFAULT_PROBE_OPTIONS, type ChunkProbeOptions } from '../src/gate/retrieval-probe.js';
import type { EmbeddedChunks } from './distinct-chunks.js';
import { embedAll } from './vectors.js';

export interface BatchedProbe extends RetrievalProbe {
  prepare(sentences: readonly string[]): Promise<void>;
}

export async function createDistinctChunkProbe(
  services: { embeddings: Embeddings; chunks: Pick<EmbeddedChunks, 'texts' | 'holders' | 'vectors'>; diseaseOfRecord: (recordId: string) => string | null },
  options: Partial<Pick<ChunkProbeOptions, 'topM' | 'minSimilarity'>> = {},
): Promise<BatchedProbe> {
  const opts = { ...DEFAULT_PROBE_OPTIONS, ...options };
  const { texts, holders, vectors } = services.chunks;
  const U = texts.length;
  const dim = vectors[0]?.length ?? 0;
  // Column-major (dim × U): a query's few non-zero coordinates each add one contiguous column.
  const columns = new Float32Array(dim * U);
  vectors.forEach((v, u) => {
    for (let j = 0; j < dim; j++) columns[j * U + u] = v[j]!;
  });

  /** Per sentence: distinct texts at or above the floor, best first. */
  const ranked = new Map<string, Int32Array>();
  const prepare = async (sentences: readonly string[]) => {
    const todo = [...new Set(sentences)].filter((s) => !ranked.has(s));
    const qs = await embedAll(services.embeddings, todo);
    const sims = new Float32Array(U);
    todo.forEach((s, qi) => {
      sims.fill(0);
      const q = qs[qi]!;
      for (let j = 0; j < q.length; j++) {
        const w = q[j]!;
        if (w === 0) continue;
        const col = j * U;
        for (let u = 0; u < U; u++) sims[u]! += w * columns[col + u]!;
      }
      const keep: number[] = [];
      for (let u = 0; u < U; u++) if (sims[u]! >= opts.minSimilarity) keep.push(u);
      keep.sort((a, b) => sims[b]! - sims[a]!);
      ranked.set(s, Int32Array.from(keep));
    });
  };
  return {
    prepare,
    async retrievesGold({ sentence, goldDiseaseId, excludeRecordId }) {
      if (!ranked.has(sentence)) await prepare([sentence]);
      let seen = 0;
      for (const u of ranked.get(sentence)!) {
        for (const recordId of holders[u]!) {
          if (recordId === excludeRecordId) continue;
          if (services.diseaseOfRecord(recordId) === goldDiseaseId) return true;
          if (++seen >= opts.topM) return false;
        }
      }
      return false;
    },
  };
}
