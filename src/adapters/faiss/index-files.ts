import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { ArtifactError, errorMessage } from '../../errors.js';
import { faiss, type NativeIndex } from './native.js';
import type { IndexKind } from './types.js';

/**
 * On-disk form of a vector index: the native FAISS file plus a JSON sidecar holding
 * the string id of every row (in row order), the kind and dimension, and the size and
 * sha256 of the FAISS file. The checksum is checked before the file reaches the native
 * reader, so a truncated or foreign file becomes an ArtifactError instead of undefined
 * behaviour inside C++.
 */
export const ID_MAP_FORMAT = 'dxgraph-faiss-ids/1';

const IdMapSchema = z.object({
  format: z.literal(ID_MAP_FORMAT),
  kind: z.enum(['flat', 'ivf', 'hnsw']),
  dim: z.number().int().positive(),
  ids: z.array(z.string()),
  indexBytes: z.number().int().nonnegative(),
  indexSha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type IdMapFile = z.infer<typeof IdMapSchema>;

export const defaultIdsPath = (indexPath: string) => `${indexPath}.ids.json`;

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Write index then sidecar, each through a temp file + rename, so a crash never leaves a half file. */
export async function writeIndexFiles(
  /** The native index, or anything that writes one to a path (vector-index.ts: a quantizer swap). */
  native: { write(path: string): void | Promise<void> },
  meta: { kind: IndexKind; dim: number; ids: readonly string[] },
  paths: { indexPath: string; idsPath: string },
): Promise<void> {
  const tmpIndex = `${paths.indexPath}.tmp-${process.pid}`;
  const tmpIds = `${paths.idsPath}.tmp-${process.pid}`;
  try {
    await native.write(tmpIndex);
    const [size, digest] = await Promise.all([stat(tmpIndex), sha256File(tmpIndex)]);
    const idMap: IdMapFile = { format: ID_MAP_FORMAT, kind: meta.kind, dim: meta.dim, ids: [...meta.ids], indexBytes: size.size, indexSha256: digest };
    await writeFile(tmpIds, JSON.stringify(idMap));
    await rename(tmpIndex, paths.indexPath);
    await rename(tmpIds, paths.idsPath);
  } catch (cause) {
    await Promise.all([rm(tmpIndex, { force: true }), rm(tmpIds, { force: true })]);
    throw new ArtifactError(paths.indexPath, `cannot write FAISS index ${paths.indexPath}: ${errorMessage(cause)}`, { cause });
  }
}

export async function readIndexFiles(paths: { indexPath: string; idsPath: string }): Promise<{ native: NativeIndex; idMap: IdMapFile }> {
  const { indexPath, idsPath } = paths;
  const indexStat = await stat(indexPath).catch(() => null);
  if (indexStat === null || !indexStat.isFile()) throw new ArtifactError(indexPath, `FAISS index file not found: ${indexPath}`);

  const rawIds = await readFile(idsPath, 'utf8').catch(() => null);
  if (rawIds === null) throw new ArtifactError(idsPath, `FAISS id map not found: ${idsPath}`);
  let idMap: IdMapFile;
  try {
    idMap = IdMapSchema.parse(JSON.parse(rawIds));
  } catch (cause) {
    throw new ArtifactError(idsPath, `FAISS id map ${idsPath} is corrupt: ${errorMessage(cause).slice(0, 200)}`, { cause });
  }

  if (indexStat.size !== idMap.indexBytes || (await sha256File(indexPath)) !== idMap.indexSha256) {
    throw new ArtifactError(indexPath, `FAISS index file ${indexPath} is corrupt or does not match its id map ${idsPath} (size/checksum mismatch)`);
  }

  let native: NativeIndex;
  try {
    native = faiss().Index.read(indexPath);
  } catch (cause) {
    throw new ArtifactError(indexPath, `cannot read FAISS index ${indexPath}: ${errorMessage(cause)}`, { cause });
  }
  if (native.ntotal() !== idMap.ids.length || native.getDimension() !== idMap.dim) {
    throw new ArtifactError(
      indexPath,
      `FAISS index ${indexPath} holds ${native.ntotal()} vectors of dim ${native.getDimension()}, but ${idsPath} lists ${idMap.ids.length} ids of dim ${idMap.dim}`,
    );
  }
  return { native, idMap };
}
