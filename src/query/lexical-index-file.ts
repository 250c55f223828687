import { readFile, writeFile } from 'node:fs/promises';
import { ArtifactError, errorMessage } from '../errors.js';
import type { LexicalData } from './lexical-index.js';

/**
 * records.lexical.bin, the lexical index's file (one format, read and written here):
 *   u32 magic "DXLX" · u32 version 1 · u32 salt · u32 rows · u32 terms · u32 postings
 *   u32 terms[terms] · f32 idf[terms] · u32 offsets[terms + 1] · u32 rows[postings] · f32 weights[postings]
 * little-endian, each array 4-byte aligned.
 */
const MAGIC = 0x584c5844; // "DXLX" read as little-endian u32
const VERSION = 1;
const HEADER = 6;

export async function writeLexicalIndex(path: string, d: LexicalData): Promise<void> {
  const T = d.terms.length;
  const P = d.postingRows.length;
  const buf = new ArrayBuffer(4 * (HEADER + T + T + T + 1 + P + P));
  const u = new Uint32Array(buf);
  const f = new Float32Array(buf);
  u.set([MAGIC, VERSION, d.salt >>> 0, d.rows, T, P], 0);
  let at = HEADER;
  u.set(d.terms, at);
  f.set(d.idf, (at += T));
  u.set(d.offsets, (at += T));
  u.set(d.postingRows, (at += T + 1));
  f.set(d.postingWeights, at + P);
  await writeFile(path, new Uint8Array(buf));
}

export async function readLexicalIndex(path: string, expectRows: number): Promise<LexicalData> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new ArtifactError(path, `lexical index ${path} is missing or unreadable: ${errorMessage(e)}`, { cause: e });
  }
  const corrupt = (why: string) => new ArtifactError(path, `lexical index ${path} is corrupt: ${why}`);
  if (bytes.byteLength < 4 * HEADER || bytes.byteLength % 4 !== 0) throw corrupt('truncated');
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const u = new Uint32Array(buf);
  const [magic, version, salt, rows, T, P] = u.subarray(0, HEADER);
  if (magic !== MAGIC || version !== VERSION) throw corrupt(`not a version ${VERSION} lexical index`);
  if (u.length !== HEADER + 3 * T! + 1 + 2 * P!) throw corrupt(`${u.length} words for ${T} terms and ${P} postings`);
  if (rows !== expectRows) throw corrupt(`it indexes ${rows} records, the manifest says ${expectRows}`);
  const f = new Float32Array(buf);
  let at = HEADER;
  const terms = u.subarray(at, (at += T!));
  const idf = f.subarray(at, (at += T!));
  const offsets = u.subarray(at, (at += T! + 1));
  const postingRows = u.subarray(at, (at += P!));
  const postingWeights = f.subarray(at, at + P!);
  if (offsets[T!] !== P) throw corrupt('postings do not add up');
  return { salt: salt!, rows: rows!, terms, idf, offsets, postingRows, postingWeights };
}
