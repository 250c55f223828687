import { InputError } from '../../errors.js';

/**
 * Search / build parameters of a FAISS index, set by patching its serialized form.
 *
 * faiss-node 0.5.1 has no setter for HNSW's efSearch / efConstruction or IVF's nprobe,
 * but FAISS serializes all three with the index and restores them on read, and the
 * binding has `toBuffer()` / `Index.fromBuffer()`. So: create the empty index, serialize
 * it, overwrite the fields in place, deserialize. The values then live in the index and
 * survive `write` / `read`. Layout (faiss/impl/index_write.cpp, FAISS 1.7.3, little-endian):
 *
 *   fourcc u32 ('IHNf' = IndexHNSWFlat, 'IwFl' = IndexIVFFlat)
 *   header: d i32, ntotal i64, 2 × dummy i64, is_trained u8, metric_type i32,
 *           metric_arg f32 only if metric_type > 1
 *   HNSW:   5 vectors (u64 count + data): assign_probas f64, cum_nneighbor_per_level i32,
 *           levels i32, offsets u64, neighbors i32;
 *           then entry_point, max_level, efConstruction, efSearch, upper_beam (i32 each)
 *   IVF:    nlist u64, nprobe u64, then the quantizer (a whole index: IndexFlatIP, or
 *           IndexHNSWFlat for many lists) and the lists
 */
export interface HnswParams {
  efConstruction: number;
  efSearch: number;
}

/** Reads `length` bytes at `offset` (a Buffer, or a file read piecewise: an index file can be GBs). */
export type ByteSource = (offset: number, length: number) => Buffer;

const HNSW_FLAT = 'IHNf';
const IVF_FLAT = 'IwFl';
const HNSW_VECTOR_ELEMENT_BYTES = [8, 4, 4, 8, 4];
const HEADER_BYTES = 4 + 8 + 8 + 8 + 1 + 4; // after the fourcc, without metric_arg

export const fromBuffer =
  (buf: Buffer): ByteSource =>
  (offset, length) => {
    if (offset + length > buf.length) throw new InputError(`FAISS index data ends at byte ${buf.length}, wanted ${offset + length}`, { field: 'index' });
    return buf.subarray(offset, offset + length);
  };

function fourcc(read: ByteSource): string {
  return read(0, 4).toString('latin1');
}

/** Byte offset just past the fourcc and the common index header. */
function afterHeader(read: ByteSource): number {
  const metricType = read(4 + HEADER_BYTES - 4, 4).readInt32LE(0);
  return 4 + HEADER_BYTES + (metricType > 1 ? 4 : 0);
}

function expect(read: ByteSource, want: string): void {
  const got = fourcc(read);
  if (got !== want) throw new InputError(`expected a FAISS ${want} index, got ${JSON.stringify(got)}`, { field: 'index' });
}

/** Offset of efConstruction (efSearch follows it). */
function hnswParamsOffset(read: ByteSource): number {
  expect(read, HNSW_FLAT);
  let at = afterHeader(read);
  for (const elementBytes of HNSW_VECTOR_ELEMENT_BYTES) {
    const count = read(at, 8).readBigUInt64LE(0);
    at += 8 + Number(count) * elementBytes;
  }
  return at + 8; // skip entry_point, max_level
}

export function readHnswParams(read: ByteSource): HnswParams {
  const b = read(hnswParamsOffset(read), 8);
  return { efConstruction: b.readInt32LE(0), efSearch: b.readInt32LE(4) };
}

/** Overwrites the given fields in `buf` (a serialized IndexHNSWFlat) in place. */
export function patchHnswParams(buf: Buffer, params: Partial<HnswParams>): void {
  const at = hnswParamsOffset(fromBuffer(buf));
  if (params.efConstruction !== undefined) buf.writeInt32LE(positiveInt(params.efConstruction, 'efConstruction'), at);
  if (params.efSearch !== undefined) buf.writeInt32LE(positiveInt(params.efSearch, 'efSearch'), at + 4);
}

export function readIvfNprobe(read: ByteSource): number {
  expect(read, IVF_FLAT);
  return Number(read(afterHeader(read) + 8, 8).readBigUInt64LE(0));
}

/** Overwrites nprobe in `buf` (a serialized IndexIVFFlat) in place. */
export function patchIvfNprobe(buf: Buffer, nprobe: number): void {
  expect(fromBuffer(buf), IVF_FLAT);
  buf.writeBigUInt64LE(BigInt(positiveInt(nprobe, 'nprobe')), afterHeader(fromBuffer(buf)) + 8);
}

/** Offset of an IVF index's quantizer, itself a serialized index. */
export function ivfQuantizerOffset(read: ByteSource): number {
  expect(read, IVF_FLAT);
  return afterHeader(read) + 16;
}

export function readIvfQuantizerHnsw(read: ByteSource): HnswParams {
  const at = ivfQuantizerOffset(read);
  return readHnswParams((offset, length) => read(at + offset, length));
}

/** Overwrites the HNSW parameters of `buf`'s quantizer (a serialized IndexIVFFlat over an IndexHNSWFlat) in place. */
export function patchIvfQuantizerHnsw(buf: Buffer, params: Partial<HnswParams>): void {
  patchHnswParams(buf.subarray(ivfQuantizerOffset(fromBuffer(buf))), params);
}

const FLAT_IP = 'IxFI';
const FLAT_L2 = 'IxF2';

/** Bytes of a serialized IndexFlat (IP or L2) starting at `at`: fourcc, header, its floats (u64 count, then the data). */
export function flatIndexBytes(read: ByteSource, at: number): number {
  const sub: ByteSource = (offset, length) => read(at + offset, length);
  const got = fourcc(sub);
  if (got !== FLAT_IP && got !== FLAT_L2) throw new InputError(`expected a FAISS flat index, got ${JSON.stringify(got)}`, { field: 'index' });
  const start = afterHeader(sub);
  return start + 8 + Number(sub(start, 8).readBigUInt64LE(0)) * 4;
}

/** Bytes of a serialized IndexHNSWFlat starting at `at`: up to its parameters, the three of them and upper_beam, then its flat storage. */
export function hnswFlatIndexBytes(read: ByteSource, at: number): number {
  const sub: ByteSource = (offset, length) => read(at + offset, length);
  const storage = hnswParamsOffset(sub) + 12; // efConstruction, efSearch, upper_beam
  return storage + flatIndexBytes(sub, storage);
}

function positiveInt(v: number, field: string): number {
  if (!Number.isInteger(v) || v < 1 || v > 0x7fffffff) throw new InputError(`${field} must be a positive integer, got ${v}`, { field });
  return v;
}
