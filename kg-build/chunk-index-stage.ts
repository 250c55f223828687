/**
 * Build stage: the chunk index FIND retrieval needs (§3.3.1, src/gate/chunk-index.ts). A chunk
 * is one sentence (finding line) of a training record, id `<recordId>#<n>`; a flat FAISS index
 * over their embeddings is saved as chunks.faiss + chunks.ids.json in the build dir. The record
 * index cannot serve: it holds one vector per whole record, FIND counts chunks per record.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { join } from 'node:path';
import type { VectorIndexLike } from '../src/adapters/faiss/types.js';
import type { ChunkIndexEntry } from '../src/domain/artifacts.js';
import { recordChunks } from '../src/gate/chunk-index.js';
import type { IndexFactory, WritableIndex } from './build-indexes.js';
import { embedAll } from './vectors.js';

export const CHUNK_FILES = { file: 'chunks.faiss', ids: 'chunks.ids.json' } as const;

export interface ChunkIndexInput {
  dir: string;
  records: AsyncIterable<{ id: string; text: string }> | Iterable<{ id: string; text: string }>;
  embeddings: Embeddings;
  factory: IndexFactory;
  dim: number;
}

export interface ChunkIndexOutcome {
  entry: ChunkIndexEntry;
  /** The index itself, when the factory's indexes can also search (FAISS does): the gate stage reuses it. */
  searchable: VectorIndexLike | null;
}

export function isSearchable(index: WritableIndex): index is WritableIndex & VectorIndexLike {
  return typeof (index as Partial<VectorIndexLike>).searchMany === 'function';
}

export async function buildChunkIndex(input: ChunkIndexInput, options: { batch?: number } = {}): Promise<ChunkIndexOutcome> {
  const batchSize = options.batch ?? 2048;
  const index = input.factory.create({ kind: 'flat', dim: input.dim });
  let batch: { id: string; text: string }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    index.add(batch.map((c) => c.id), await embedAll(input.embeddings, batch.map((c) => c.text)));
    batch = [];
  };
  for await (const r of input.records) {
    for (const c of recordChunks(r)) batch.push(c);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  await index.save(join(input.dir, CHUNK_FILES.file), join(input.dir, CHUNK_FILES.ids));
  return { entry: { size: index.size, file: CHUNK_FILES.file, ids: CHUNK_FILES.ids }, searchable: isSearchable(index) ? index : null };
}
