/**
 * The FIND chunk index as the build saves it (kg-build/chunk-index-stage.ts): one vector per
 * DISTINCT chunk text, plus the chunk ids holding each text. A search for the top-m chunks
 * takes the top-m texts (each holds ≥ 1 chunk) and expands them, best text first, into chunk
 * hits until m are collected — the flat index over every chunk would return the same chunks
 * (equal texts tie; FAISS orders ties arbitrarily as well).
 */
import type { VectorIndexLike } from '../adapters/faiss/types.js';
import { recordIdOfChunk, type ChunkHit, type ChunkIndex } from '../gate/chunk-index.js';

export function distinctChunkIndex(index: VectorIndexLike, groups: ReadonlyMap<string, readonly string[]>): ChunkIndex {
  return {
    searchMany(queries, m) {
      if (queries.length === 0 || m <= 0) return queries.map(() => []);
      return index.searchMany(queries, Math.min(m, index.size)).map((hits) => {
        const out: ChunkHit[] = [];
        for (const h of hits) {
          for (const chunkId of groups.get(h.id) ?? [h.id]) {
            if (out.length >= m) return out;
            out.push({ chunkId, recordId: recordIdOfChunk(chunkId), similarity: h.score });
          }
        }
        return out;
      });
    },
  };
}
