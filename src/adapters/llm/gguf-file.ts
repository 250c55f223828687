/**
 * The layout of a GGUF file (the llama.cpp model format, spec: ggml/docs/gguf.md), read far
 * enough to rewrite its tensors: the header, the key-value section kept as bytes, and the tensor
 * infos. Only what gguf-requant.ts needs; node-llama-cpp reads the models themselves.
 */
import { LocalModelError } from '../../errors.js';

export interface GgufTensor {
  name: string;
  dims: bigint[];
  /** ggml_type: 0 F32, 1 F16, 2 Q4_0, 3 Q4_1, 8 Q8_0, ... */
  type: number;
  /** Byte offset from the start of the data section. */
  offset: number;
}

export interface GgufLayout {
  /** Magic, version, tensor count, key-value count: copied as they are. */
  header: Buffer;
  /** Every key-value pair as stored. */
  kv: Buffer;
  /** Where `general.file_type`'s u32 value sits inside `kv` (null: absent). */
  fileTypeAt: number | null;
  alignment: number;
  tensors: GgufTensor[];
  /** Absolute offset of the data section. */
  dataStart: number;
}

/** Byte sizes of scalar value types (gguf_type): u8 i8 u16 i16 u32 i32 f32 bool, then u64 i64 f64. */
const SCALAR: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

export function readGgufLayout(buf: Buffer): GgufLayout {
  if (buf.length < 24 || buf.toString('latin1', 0, 4) !== 'GGUF') throw new LocalModelError('not a GGUF file (magic)');
  const version = buf.readUInt32LE(4);
  if (version < 2 || version > 3) throw new LocalModelError(`GGUF version ${version} is not supported (2 or 3)`);
  const nTensors = Number(buf.readBigUInt64LE(8));
  const nKv = Number(buf.readBigUInt64LE(16));
  let at = 24;
  const need = (n: number) => {
    if (at + n > buf.length) throw new LocalModelError('GGUF file is truncated');
  };
  const u32 = () => (need(4), (at += 4), buf.readUInt32LE(at - 4));
  const u64 = () => (need(8), (at += 8), buf.readBigUInt64LE(at - 8));
  const str = () => {
    const n = Number(u64());
    need(n);
    at += n;
    return buf.toString('utf8', at - n, at);
  };
  const skipValue = (type: number): void => {
    if (type in SCALAR) return void (need(SCALAR[type]!), (at += SCALAR[type]!));
    if (type === STRING) return void str();
    if (type !== ARRAY) throw new LocalModelError(`GGUF value type ${type} is unknown`);
    const itemType = u32();
    const n = Number(u64());
    if (itemType in SCALAR) return void (need(n * SCALAR[itemType]!), (at += n * SCALAR[itemType]!));
    for (let i = 0; i < n; i++) skipValue(itemType);
  };

  let fileTypeAt: number | null = null;
  let alignment = 32;
  for (let i = 0; i < nKv; i++) {
    const key = str();
    const type = u32();
    if (key === 'general.file_type' && type === 4) fileTypeAt = at - 24;
    if (key === 'general.alignment' && type === 4) alignment = buf.readUInt32LE(at);
    skipValue(type);
  }
  const kvEnd = at;
  const tensors: GgufTensor[] = [];
  for (let i = 0; i < nTensors; i++) {
    const name = str();
    const nDims = u32();
    const dims = Array.from({ length: nDims }, u64);
    tensors.push({ name, dims, type: u32(), offset: Number(u64()) });
  }
  return { header: buf.subarray(0, 24), kv: buf.subarray(24, kvEnd), fileTypeAt, alignment, tensors, dataStart: alignUp(at, alignment) };
}

export const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

/** Tensor infos as GGUF stores them, with the offsets given. */
export function tensorInfoBytes(tensors: GgufTensor[]): Buffer {
  const parts: Buffer[] = [];
  for (const t of tensors) {
    const name = Buffer.from(t.name, 'utf8');
    const b = Buffer.alloc(8 + name.length + 4 + 8 * t.dims.length + 4 + 8);
    let at = b.writeBigUInt64LE(BigInt(name.length), 0);
    at += name.copy(b, at);
    at = b.writeUInt32LE(t.dims.length, at);
    for (const d of t.dims) at = b.writeBigUInt64LE(d, at);
    at = b.writeUInt32LE(t.type, at);
    b.writeBigUInt64LE(BigInt(t.offset), at);
    parts.push(b);
  }
  return Buffer.concat(parts);
}
