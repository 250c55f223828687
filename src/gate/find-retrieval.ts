/**
 * FIND §3.3.1 chunk-sentence level retrieval: every kept sentence s_i retrieves its top-m
 * chunks C_i (eq. 6); each record D_j scores S_j = number of retrieved chunks from it (eq. 7);
 * records are re-ranked by S_j and the top-k kept. Only A and B sentences query (ICA-RAG §3.3:
 * C sentences "contribute minimally to retrieval and may introduce noise"). Chunks below
 * `minSimilarity` are discarded (FIND appendix B.3: 50%). Ties on S_j go to the record with the
 * best single chunk similarity, then to the record id, so the order is deterministic.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import type { ChunkIndex } from './chunk-index.js';
import type { SentenceLabel } from './types.js';

export interface FindRetrievalOptions {
  /** Chunks per sentence (FIND: 100). */
  topM: number;
  /** Records kept (FIND: 5). */
  topK: number;
  minSimilarity: number;
  /** When no sentence is A or B, query with all sentences rather than return nothing. */
  fallbackToAllSentences: boolean;
}

export const DEFAULT_FIND_RETRIEVAL: FindRetrievalOptions = { topM: 100, topK: 5, minSimilarity: 0.5, fallbackToAllSentences: true };

export interface FindRetrievedRecord {
  recordId: string;
  /** S_j: chunks of this record retrieved over all sentences (eq. 7). */
  chunkCount: number;
  bestSimilarity: number;
  /** Indices (into the input sentences) of the sentences that retrieved this record. */
  sentenceIndices: number[];
}

export interface FindRetrievalResult {
  records: FindRetrievedRecord[];
  /** Sentences that were used as queries. */
  queriedSentences: number;
  usedFallback: boolean;
}

export async function findRetrieve(
  sentences: readonly { text: string; label: SentenceLabel }[],
  services: { embedder: Embeddings; chunkIndex: ChunkIndex },
  options: Partial<FindRetrievalOptions> = {},
): Promise<FindRetrievalResult> {
  const opts = { ...DEFAULT_FIND_RETRIEVAL, ...options };
  let queryIdx = sentences.flatMap((s, i) => (s.label === 'C' ? [] : [i]));
  const usedFallback = queryIdx.length === 0 && opts.fallbackToAllSentences;
  if (usedFallback) queryIdx = sentences.map((_, i) => i);
  if (queryIdx.length === 0) return { records: [], queriedSentences: 0, usedFallback };

  const vectors = (await services.embedder.embedDocuments(queryIdx.map((i) => sentences[i]!.text))).map((v) => Float32Array.from(v));
  const hitsPerSentence = services.chunkIndex.searchMany(vectors, opts.topM);

  const byRecord = new Map<string, FindRetrievedRecord>();
  hitsPerSentence.forEach((hits, q) => {
    for (const h of hits) {
      if (h.similarity < opts.minSimilarity) continue;
      let r = byRecord.get(h.recordId);
      if (r === undefined) byRecord.set(h.recordId, (r = { recordId: h.recordId, chunkCount: 0, bestSimilarity: -Infinity, sentenceIndices: [] }));
      r.chunkCount++;
      r.bestSimilarity = Math.max(r.bestSimilarity, h.similarity);
      const si = queryIdx[q]!;
      if (r.sentenceIndices.at(-1) !== si) r.sentenceIndices.push(si);
    }
  });
  const records = [...byRecord.values()]
    .sort((a, b) => b.chunkCount - a.chunkCount || b.bestSimilarity - a.bestSimilarity || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0))
    .slice(0, opts.topK);
  return { records, queriedSentences: queryIdx.length, usedFallback };
}
