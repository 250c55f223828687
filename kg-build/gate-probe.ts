/**
 * The masking annotation's retrieval probe for the build (same rule as
 * src/gate/retrieval-probe.ts: the sentence alone retrieves a gold-disease record among the
 * top-m chunks above the similarity floor, the example's own record excluded), but with the
 * chunk searches done up front in one batched FAISS call over the distinct sentences of the
 * sample. Record renderings repeat the same templated findings, so this turns thousands of
 * single searches into one matrix product and keeps the build's gate stage within seconds.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import type { ChunkHit, ChunkIndex } from '../src/gate/chunk-index.js';
import type { RetrievalProbe } from '../src/gate/masking-annotation.js';
import { DEFAULT_PROBE_OPTIONS, type ChunkProbeOptions } from '../src/gate/retrieval-probe.js';
import { embedAll } from './vectors.js';

export interface BatchedProbe extends RetrievalProbe {
  prepare(sentences: readonly string[]): Promise<void>;
}

export function createBatchedChunkProbe(
  services: { embeddings: Embeddings; chunkIndex: ChunkIndex; diseaseOfRecord: (recordId: string) => string | null },
  options: Partial<ChunkProbeOptions & { batch: number }> = {},
): BatchedProbe {
  const opts = { ...DEFAULT_PROBE_OPTIONS, batch: 512, ...options };
  const hits = new Map<string, ChunkHit[]>();
  const prepare = async (sentences: readonly string[]) => {
    const todo = [...new Set(sentences)].filter((s) => !hits.has(s));
    for (let i = 0; i < todo.length; i += opts.batch) {
      const part = todo.slice(i, i + opts.batch);
      const found = services.chunkIndex.searchMany(await embedAll(services.embeddings, part), opts.topM + opts.ownChunksSlack);
      part.forEach((s, j) => hits.set(s, found[j] ?? []));
    }
  };
  return {
    prepare,
    async retrievesGold({ sentence, goldDiseaseId, excludeRecordId }) {
      if (!hits.has(sentence)) await prepare([sentence]);
      return hits
        .get(sentence)!
        .filter((h) => h.recordId !== excludeRecordId)
        .slice(0, opts.topM)
        .some((h) => h.similarity >= opts.minSimilarity && services.diseaseOfRecord(h.recordId) === goldDiseaseId);
    },
  };
}
