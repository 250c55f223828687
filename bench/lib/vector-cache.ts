import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ddxplusTexts, embeddedChunks } from './record-texts.js';

/**
 * Embedded record vectors of a generated dataset, cached in the bench work dir: embedding
 * 1M record texts with the hashed embedder takes ~15 min of CPU here, the FAISS figures
 * need them every run. `<workDir>/data/vectors/<dataset>.f32` holds the unit vectors
 * row-major (Float32, little-endian), `.json` the ids and what they were made from (the
 * embedder id and the patients file's size and mtime): any change re-embeds.
 */
export interface CachedChunksInput {
  datasetDir: string;
  embedder: Parameters<typeof embeddedChunks>[1] & { readonly id: string; readonly dim: number };
  chunk: number;
}

interface CacheMeta {
  embedder: string;
  dim: number;
  source: { bytes: number; mtimeMs: number };
  ids: string[];
}

type Chunk = { ids: string[]; vectors: Float32Array };

export function cachePaths(datasetDir: string): { vectors: string; meta: string } {
  const base = join(dirname(datasetDir), 'vectors', basename(datasetDir));
  return { vectors: `${base}.f32`, meta: `${base}.json` };
}

/** Chunks from the cache when it matches, else embedded now (and written to the cache on the way). */
export async function* cachedEmbeddedChunks(input: CachedChunksInput): AsyncGenerator<Chunk & { fromCache: boolean }> {
  const paths = cachePaths(input.datasetDir);
  const src = await stat(join(input.datasetDir, 'release_train_patients.csv'));
  const source = { bytes: src.size, mtimeMs: src.mtimeMs };
  const meta = await readMeta(paths.meta);
  if (meta && meta.embedder === input.embedder.id && meta.dim === input.embedder.dim && meta.source.bytes === source.bytes && meta.source.mtimeMs === source.mtimeMs) {
    for await (const c of readChunks(paths.vectors, meta, input.chunk)) yield { ...c, fromCache: true };
    return;
  }
  await mkdir(dirname(paths.vectors), { recursive: true });
  const tmp = `${paths.vectors}.tmp-${process.pid}`;
  const out = await open(tmp, 'w');
  const ids: string[] = [];
  try {
    for await (const c of embeddedChunks(ddxplusTexts(input.datasetDir), input.embedder, { chunk: input.chunk, dim: input.embedder.dim })) {
      await out.write(new Uint8Array(c.vectors.buffer, c.vectors.byteOffset, c.vectors.byteLength));
      ids.push(...c.ids);
      yield { ...c, fromCache: false };
    }
    await out.close();
    await rename(tmp, paths.vectors);
    const fresh: CacheMeta = { embedder: input.embedder.id, dim: input.embedder.dim, source, ids };
    await writeFile(paths.meta, JSON.stringify(fresh));
  } finally {
    await out.close().catch(() => undefined); // already closed on success
    await rm(tmp, { force: true });
  }
}

/**
 * `size` rows evenly spaced over the whole cached file (row-major): the IVF k-means sample
 * the product's build would take. Embeds (and caches) the dataset first when not cached.
 */
export async function cachedStridedRows(input: CachedChunksInput, size: number): Promise<Float32Array> {
  const paths = cachePaths(input.datasetDir);
  let meta = await readMeta(paths.meta);
  if (!meta || meta.embedder !== input.embedder.id) {
    for await (const _ of cachedEmbeddedChunks(input)); // fills the cache
    meta = await readMeta(paths.meta);
  }
  if (!meta) throw new Error(`vector cache ${paths.meta} was not written`);
  const n = meta.ids.length;
  const take = Math.min(n, size);
  const rowBytes = meta.dim * 4;
  const out = new Float32Array(take * meta.dim);
  const f = await open(paths.vectors, 'r');
  try {
    for (let i = 0; i < take; i++) {
      const row = Math.floor((i * n) / take);
      const { bytesRead } = await f.read(new Uint8Array(out.buffer, i * rowBytes, rowBytes), 0, rowBytes, row * rowBytes);
      if (bytesRead !== rowBytes) throw new Error(`vector cache ${paths.vectors} is short at row ${row}`);
    }
  } finally {
    await f.close();
  }
  return out;
}

async function readMeta(path: string): Promise<CacheMeta | null> {
  const raw = await readFile(path, 'utf8').catch(() => null);
  return raw === null ? null : (JSON.parse(raw) as CacheMeta);
}

async function* readChunks(path: string, meta: CacheMeta, chunk: number): AsyncGenerator<Chunk> {
  const f = await open(path, 'r');
  try {
    const rowBytes = meta.dim * 4;
    for (let start = 0; start < meta.ids.length; start += chunk) {
      const rows = Math.min(chunk, meta.ids.length - start);
      const vectors = new Float32Array(rows * meta.dim);
      const view = new Uint8Array(vectors.buffer);
      const { bytesRead } = await f.read(view, 0, view.length, start * rowBytes);
      if (bytesRead !== view.length) throw new Error(`vector cache ${path} is short: ${bytesRead} of ${view.length} bytes at row ${start}`);
      yield { ids: meta.ids.slice(start, start + rows), vectors };
    }
  } finally {
    await f.close();
  }
}
