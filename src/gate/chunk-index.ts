/**
 * Record chunks for FIND retrieval (§3.3, appendix B.1). FIND cuts knowledge documents into
 * ~200-word chunks of whole sentences; our documents are EHR records whose sentences are
 * findings (one per line), so a chunk is one finding. A chunk's id is `<recordId>#<n>`, so any
 * `VectorIndexLike` built over chunk vectors with those ids serves as a `ChunkIndex`.
 */
import type { VectorIndexLike } from '../adapters/faiss/types.js';
import { segmentSentences } from './segment-sentences.js';

export interface RecordChunk {
  id: string;
  recordId: string;
  text: string;
}

export interface ChunkHit {
  chunkId: string;
  recordId: string;
  similarity: number;
}

/** What FIND retrieval needs: top-m chunks for each of many query vectors. */
export interface ChunkIndex {
  searchMany(queries: Float32Array[], m: number): ChunkHit[][];
}

const SEP = '#';

export function chunkId(recordId: string, n: number): string {
  return `${recordId}${SEP}${n}`;
}

export function recordIdOfChunk(id: string): string {
  const at = id.lastIndexOf(SEP);
  return at < 0 ? id : id.slice(0, at);
}

/** Chunks of one record: its sentences (findings), in order; numbering is stable for a given text. */
export function recordChunks(record: { id: string; text: string }): RecordChunk[] {
  return segmentSentences(record.text).map((text, n) => ({ id: chunkId(record.id, n), recordId: record.id, text }));
}

/** Adapts a vector index whose ids follow the `<recordId>#<n>` convention. */
export function chunkIndexFromVectors(index: VectorIndexLike): ChunkIndex {
  return {
    searchMany(queries, m) {
      if (queries.length === 0) return [];
      return index.searchMany(queries, m).map((hits) => hits.map((h) => ({ chunkId: h.id, recordId: recordIdOfChunk(h.id), similarity: h.score })));
    },
  };
}
