/**
 * The masking annotation's retrieval step (FIND §3.2.2 / ICA-RAG: "if documents corresponding
 * to the disease in R̄ can be retrieved, s_i is labeled B"): the sentence alone queries the
 * chunk index; true when a record of the gold disease is among the top-m chunks. The example's
 * own record is excluded, or every sentence would trivially retrieve itself.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import type { ChunkIndex } from './chunk-index.js';
import type { RetrievalProbe } from './masking-annotation.js';

export interface ChunkProbeOptions {
  topM: number;
  minSimilarity: number;
  /** Extra hits fetched to make room for the excluded record's own chunks. */
  ownChunksSlack: number;
}

export const DEFAULT_PROBE_OPTIONS: ChunkProbeOptions = { topM: 10, minSimilarity: 0.5, ownChunksSlack: 64 };

export function createChunkRetrievalProbe(
  services: { embedder: Embeddings; chunkIndex: ChunkIndex; diseaseOfRecord: (recordId: string) => string | null },
  options: Partial<ChunkProbeOptions> = {},
): RetrievalProbe {
  const opts = { ...DEFAULT_PROBE_OPTIONS, ...options };
  return {
    async retrievesGold({ sentence, goldDiseaseId, excludeRecordId }) {
      const vector = Float32Array.from(await services.embedder.embedQuery(sentence));
      const hits = services.chunkIndex.searchMany([vector], opts.topM + opts.ownChunksSlack)[0] ?? [];
      return hits
        .filter((h) => h.recordId !== excludeRecordId)
        .slice(0, opts.topM)
        .some((h) => h.similarity >= opts.minSimilarity && services.diseaseOfRecord(h.recordId) === goldDiseaseId);
    },
  };
}
