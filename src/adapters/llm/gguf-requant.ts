/**
 * Re-stores a GGUF's Q4_1 tensors as Q8_0 (ggml's block formats, ggml-quants.c), the rest byte
 * for byte. Why: llama.cpp's CPU backend repacks Q8_0 (and Q4_0) weights into interleaved blocks
 * with AVX2 matrix kernels, and has none for Q4_1; the shipped SmolLM2-135M is Q4_1, so its prompt
 * evaluation, most of a local call's CPU, ran on the plain dot products (docs/llm.md, "The local
 * model's CPU": about 1.7x the prompt tokens per CPU second after). Q8_0 holds every Q4_1 value
 * to within 1/254 of its block's largest magnitude: the same weights, not a new quantization.
 */
import { LocalModelError } from '../../errors.js';
import { alignUp, readGgufLayout, tensorInfoBytes, type GgufTensor } from './gguf-file.js';

const F32 = 0;
const F16 = 1;
const Q4_0 = 2;
const Q4_1 = 3;
const Q8_0 = 8;
/** llama_ftype LLAMA_FTYPE_MOSTLY_Q8_0, what general.file_type says once the bulk is Q8_0. */
const FTYPE_MOSTLY_Q8_0 = 7;
const BLOCK = 32;
/** Bytes per block of 32 values (ggml's type traits). */
const BLOCK_BYTES: Record<number, number> = { [Q4_0]: 18, [Q4_1]: 20, [Q8_0]: 34 };

/** The converted file's bytes, or the input itself when it holds no Q4_1 tensor. */
export function requantQ41ToQ80(input: Buffer): Buffer {
  const layout = readGgufLayout(input);
  if (!layout.tensors.some((t) => t.type === Q4_1)) return input;
  const out: GgufTensor[] = [];
  const data: Buffer[] = [];
  let offset = 0;
  layout.tensors.forEach((t, i) => {
    const bytes = tensorBytes(layout.tensors, i, layout.dataStart, input.length);
    const src = input.subarray(layout.dataStart + t.offset, layout.dataStart + t.offset + bytes);
    if (src.length !== bytes) throw new LocalModelError(`GGUF tensor ${t.name} runs past the end of the file`);
    const converted = t.type === Q4_1 ? q41ToQ80(src) : src;
    out.push({ ...t, type: t.type === Q4_1 ? Q8_0 : t.type, offset });
    const padded = alignUp(converted.length, layout.alignment);
    data.push(converted, Buffer.alloc(padded - converted.length));
    offset += padded;
  });
  const kv = Buffer.from(layout.kv);
  if (layout.fileTypeAt !== null) kv.writeUInt32LE(FTYPE_MOSTLY_Q8_0, layout.fileTypeAt);
  const infos = tensorInfoBytes(out);
  const headEnd = layout.header.length + kv.length + infos.length;
  const pad = Buffer.alloc(alignUp(headEnd, layout.alignment) - headEnd);
  return Buffer.concat([layout.header, kv, infos, pad, ...data]);
}

/** A tensor's byte length from its type, or, for a type not listed, up to the next tensor's data. */
function tensorBytes(tensors: GgufTensor[], i: number, dataStart: number, fileLength: number): number {
  const t = tensors[i]!;
  const n = Number(t.dims.reduce((a, b) => a * b, 1n));
  if (t.type === F32) return 4 * n;
  if (t.type === F16) return 2 * n;
  const block = BLOCK_BYTES[t.type];
  if (block !== undefined) {
    if (n % BLOCK !== 0) throw new LocalModelError(`GGUF tensor ${t.name}: ${n} values are not whole blocks of ${BLOCK}`);
    return (n / BLOCK) * block;
  }
  const next = Math.min(...tensors.map((o) => o.offset).filter((o) => o > t.offset), fileLength - dataStart);
  return next - t.offset;
}

/** Q4_1 block (f16 d, f16 m, 16 bytes of nibbles: value = d*q + m) to Q8_0 (f16 d, 32 int8: value = d*q). */
export function q41ToQ80(src: Buffer): Buffer {
  const blocks = src.length / 20;
  const dst = Buffer.alloc(blocks * 34);
  const out = new Int8Array(dst.buffer, dst.byteOffset, dst.length);
  const half = halfTable();
  const x = new Float32Array(BLOCK);
  for (let b = 0; b < blocks; b++) {
    const s = b * 20;
    const d = half[src[s]! | (src[s + 1]! << 8)]!;
    const m = half[src[s + 2]! | (src[s + 3]! << 8)]!;
    let amax = 0;
    for (let j = 0; j < 16; j++) {
      const q = src[s + 4 + j]!;
      x[j] = Math.fround((q & 0x0f) * d) + m; // the store into x rounds the sum to f32, as ggml's float arithmetic
      x[j + 16] = Math.fround((q >> 4) * d) + m;
    }
    for (let j = 0; j < BLOCK; j++) amax = Math.max(amax, Math.abs(x[j]!));
    // quantize_row_q8_0_ref: the scale from the block's largest magnitude, values rounded half away from zero.
    const scale = Math.fround(amax / 127);
    const inv = scale ? Math.fround(1 / scale) : 0;
    const o = b * 34;
    const h = floatToHalf(scale);
    [dst[o], dst[o + 1]] = [h & 0xff, h >> 8];
    for (let j = 0; j < BLOCK; j++) {
      const v = Math.fround(x[j]! * inv);
      out[o + 2 + j] = v < 0 ? -Math.round(-v) : Math.round(v);
    }
  }
  return dst;
}

let halves: Float32Array | null = null;
/** Every half's value, once (65,536 entries): decoding two halves per block by table, not by arithmetic. */
function halfTable(): Float32Array {
  if (!halves) {
    halves = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) halves[h] = halfToFloat(h);
  }
  return halves;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** IEEE half, rounded to nearest even (as F16C's conversion ggml uses). */
export function floatToHalf(v: number): number {
  f32[0] = v;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 112; // rebias 127 -> 15
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    return sign | roundShift(mant, shift);
  }
  return sign | ((e << 10) + roundShift(mant, 13)); // a carry out of the mantissa bumps the exponent, as it should
}

function roundShift(m: number, shift: number): number {
  const kept = m >>> shift;
  const rem = m & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  return rem > half || (rem === half && kept & 1) ? kept + 1 : kept;
}
