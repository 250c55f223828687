/**
 * Build stage: the chunk index FIND retrieval needs (§3.3.1, src/gate/chunk-index.ts). A chunk
 * is one sentence (finding line) of a training record, id `<recordId>#<n>`. Record renderings
 * repeat the same lines (~16k chunks of the DDXPlus sample are ~5k distinct texts), and chunks
 * with the same text have the same similarity to any query, so the flat FAISS index holds each
 * DISTINCT text once (its vector id: the text's first chunk id) and `chunks.groups.json` lists,
 * aligned with the index rows, every chunk id holding that text. src/query/distinct-chunk-index.ts
 * expands hits back to chunks. A third of the vectors: a third of the build and search time.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { VectorIndexLike } from '../src/adapters/faiss/types.js';
import type { ChunkIndexEntry } from '../src/domain/artifacts.js';
import { recordChunks } from '../src/gate/chunk-index.js';
import type { IndexFactory, WritableIndex } from './build-indexes.js';
import { embedAll } from './vectors.js';

export const CHUNK_FILES = { file: 'chunks.faiss', ids: 'chunks.ids.json', groups: 'chunks.groups.json' } as const;

export interface ChunkIndexInput {
  dir: string;
  records: Iterable<{ id: string; text: string }>;
  embeddings: Embeddings;
  factory: IndexFactory;
  dim: number;
}

export function isSearchable(index: WritableIndex): index is WritableIndex & VectorIndexLike {
  return typeof (index as Partial<VectorIndexLike>).searchMany === 'function';
}

export async function buildChunkIndex(input: ChunkIndexInput): Promise<ChunkIndexEntry> {
  const groups = new Map<string, string[]>();
  let chunks = 0;
  for (const r of input.records) {
    for (const c of recordChunks(r)) {
      const g = groups.get(c.text);
      if (g) g.push(c.id);
      else groups.set(c.text, [c.id]);
      chunks++;
    }
  }
  const texts = [...groups.keys()];
  const members = texts.map((t) => groups.get(t)!);
  const index = input.factory.create({ kind: 'flat', dim: input.dim });
  if (texts.length > 0) index.add(members.map((m) => m[0]!), await embedAll(input.embeddings, texts));
  await index.save(join(input.dir, CHUNK_FILES.file), join(input.dir, CHUNK_FILES.ids));
  await writeFile(join(input.dir, CHUNK_FILES.groups), JSON.stringify(members));
  return { size: chunks, texts: texts.length, file: CHUNK_FILES.file, ids: CHUNK_FILES.ids, groups: CHUNK_FILES.groups };
}
