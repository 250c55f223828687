/**
 * Build stage: the chunk index FIND retrieval needs (§3.3.1, src/gate/chunk-index.ts). A chunk
 * is one sentence (finding line) of a training record, id `<recordId>#<n>`. Record renderings
 * repeat the same lines (~16k chunks of the DDXPlus sample are ~5k distinct texts), and chunks
 * with the same text have the same similarity to any query, so the flat FAISS index holds each
 * DISTINCT text once (its vector id: the text's first chunk id) and `chunks.groups.json` lists,
 * aligned with the index rows, every chunk id holding that text. src/query/distinct-chunk-index.ts
 * expands hits back to chunks. A third of the vectors: a third of the build and search time.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { VectorIndexLike } from '../src/adapters/faiss/types.js';
import type { ChunkIndexEntry } from '../src/domain/artifacts.js';
import type { IndexFactory, WritableIndex } from './build-indexes.js';
import type { EmbeddedChunks } from './distinct-chunks.js';

export const CHUNK_FILES = { file: 'chunks.faiss', ids: 'chunks.ids.json', groups: 'chunks.groups.json' } as const;

export interface ChunkIndexInput {
  dir: string;
  /** The records' chunks grouped by text, embedded (distinct-chunks.ts; shared with the gate probe). */
  chunks: EmbeddedChunks;
  factory: IndexFactory;
  dim: number;
}

export function isSearchable(index: WritableIndex): index is WritableIndex & VectorIndexLike {
  return typeof (index as Partial<VectorIndexLike>).searchMany === 'function';
}

export async function buildChunkIndex(input: ChunkIndexInput): Promise<ChunkIndexEntry> {
  const { texts, members, vectors } = input.chunks;
  const index = input.factory.create({ kind: 'flat', dim: input.dim });
  if (texts.length > 0) index.add(members.map((m) => m[0]!), vectors);
  await index.save(join(input.dir, CHUNK_FILES.file), join(input.dir, CHUNK_FILES.ids));
  await writeFile(join(input.dir, CHUNK_FILES.groups), JSON.stringify(members));
  return { size: input.chunks.chunkCount, texts: texts.length, file: CHUNK_FILES.file, ids: CHUNK_FILES.ids, groups: CHUNK_FILES.groups, membersPerText: input.chunks.membersPerText };
}
