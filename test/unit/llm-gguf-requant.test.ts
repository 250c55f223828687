import assert from 'node:assert/strict';
import { LocalModelError } from '../../src/errors.js';
import { readGgufLayout } from '../../src/adapters/llm/gguf-file.js';
import { floatToHalf, halfToFloat, q41ToQ80, requantQ41ToQ80 } from '../../src/adapters/llm/gguf-requant.js';

/**
 * Q4_1 -> Q8_0 re-storage of a GGUF (gguf-requant.ts) on a small file made here: the layout
 * llama.cpp reads (aligned offsets, the key-value section as it was but for the file type) and
 * every weight kept to within the Q8_0 step. The shipped model through it is local-llm's story.
 */
const str = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  const n = Buffer.alloc(8);
  n.writeBigUInt64LE(BigInt(b.length));
  return Buffer.concat([n, b]);
};
const u32 = (v: number) => (b => (b.writeUInt32LE(v), b))(Buffer.alloc(4));
const u64 = (v: number) => (b => (b.writeBigUInt64LE(BigInt(v)), b))(Buffer.alloc(8));
const pad = (b: Buffer, a = 32) => Buffer.concat([b, Buffer.alloc((a - (b.length % a)) % a)]);

/** Deterministic bytes (an LCG), so a failure reproduces. */
function bytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let s = seed;
  for (let i = 0; i < n; i++) b[i] = (s = (s * 1103515245 + 12345) >>> 0) >>> 24;
  return b;
}

function q41Blocks(n: number, seed: number): Buffer {
  const b = bytes(n * 20, seed);
  for (let i = 0; i < n; i++) {
    b.writeUInt16LE(floatToHalf(0.001 + 0.01 * ((i * 7) % 5)), i * 20); // d > 0
    b.writeUInt16LE(floatToHalf(-0.05 * ((i * 3) % 4)), i * 20 + 2); // m <= 0
  }
  return b;
}

interface T { name: string; dims: number[]; type: number; data: Buffer }
function gguf(tensors: T[], fileType = 3): Buffer {
  const kv = [
    Buffer.concat([str('general.architecture'), u32(8), str('llama')]),
    Buffer.concat([str('general.file_type'), u32(4), u32(fileType)]),
    Buffer.concat([str('tokenizer.ggml.tokens'), u32(9), u32(8), u64(2), str('a'), str('bc')]),
    Buffer.concat([str('some.floats'), u32(9), u32(6), u64(3), Buffer.alloc(12)]),
  ];
  const infos: Buffer[] = [];
  const data: Buffer[] = [];
  let offset = 0;
  for (const t of tensors) {
    infos.push(Buffer.concat([str(t.name), u32(t.dims.length), ...t.dims.map(u64), u32(t.type), u64(offset)]));
    const d = pad(t.data);
    data.push(d);
    offset += d.length;
  }
  const head = Buffer.concat([Buffer.from('GGUF', 'latin1'), u32(3), u64(tensors.length), u64(kv.length), ...kv, ...infos]);
  return Buffer.concat([pad(head), ...data]);
}

function dequantQ41(b: Buffer): number[] {
  const out: number[] = [];
  for (let s = 0; s < b.length; s += 20) {
    const [d, m] = [halfToFloat(b.readUInt16LE(s)), halfToFloat(b.readUInt16LE(s + 2))];
    const block = new Array<number>(32);
    for (let j = 0; j < 16; j++) [block[j], block[j + 16]] = [(b[s + 4 + j]! & 15) * d + m, (b[s + 4 + j]! >> 4) * d + m];
    out.push(...block);
  }
  return out;
}
function dequantQ80(b: Buffer): number[] {
  const out: number[] = [];
  for (let s = 0; s < b.length; s += 34) for (let j = 0; j < 32; j++) out.push(halfToFloat(b.readUInt16LE(s)) * b.readInt8(s + 2 + j));
  return out;
}

describe('GGUF Q4_1 -> Q8_0 (gguf-requant)', () => {
  const w = { name: 'blk.0.ffn_up.weight', dims: [64, 3], type: 3, data: q41Blocks(6, 1) };
  const norm = { name: 'blk.0.attn_norm.weight', dims: [3], type: 0, data: bytes(12, 2) };
  const embd = { name: 'token_embd.weight', dims: [32, 2], type: 8, data: bytes(68, 3) };
  const input = gguf([w, norm, embd]);

  it('rewrites the Q4_1 tensors as Q8_0 at aligned offsets and keeps the other tensors and the metadata', () => {
    const before = readGgufLayout(input);
    const out = requantQ41ToQ80(input);
    const after = readGgufLayout(out);
    assert.deepEqual(after.tensors.map((t) => [t.name, t.dims.map(Number), t.type]), [[w.name, [64, 3], 8], [norm.name, [3], 0], [embd.name, [32, 2], 8]]);
    for (const t of after.tensors) assert.equal(t.offset % 32, 0, `${t.name} at ${t.offset}`);
    assert.equal(after.dataStart % 32, 0);
    const data = (i: number, len: number) => out.subarray(after.dataStart + after.tensors[i]!.offset, after.dataStart + after.tensors[i]!.offset + len);
    assert.deepEqual(data(1, 12), norm.data);
    assert.deepEqual(data(2, 68), embd.data);
    assert.equal(after.kv.readUInt32LE(after.fileTypeAt!), 7, 'general.file_type: mostly Q8_0');
    const kv = Buffer.from(before.kv);
    kv.writeUInt32LE(7, before.fileTypeAt!);
    assert.deepEqual(after.kv, kv, 'every other key-value byte as it was');
    const [x, y] = [dequantQ41(w.data), dequantQ80(data(0, 6 * 34))];
    for (let b = 0; b < 6; b++) {
      const amax = Math.max(...x.slice(b * 32, b * 32 + 32).map(Math.abs));
      for (let j = b * 32; j < b * 32 + 32; j++) assert.ok(Math.abs(x[j]! - y[j]!) <= amax * 0.0045, `value ${j}: ${x[j]} -> ${y[j]}`);
    }
  });

  it('leaves a file without Q4_1 tensors as it is, and refuses a truncated or foreign file', () => {
    const q8 = gguf([norm, embd], 7);
    assert.equal(requantQ41ToQ80(q8), q8);
    assert.throws(() => requantQ41ToQ80(input.subarray(0, input.length - 40)), LocalModelError);
    assert.throws(() => requantQ41ToQ80(input.subarray(0, 100)), LocalModelError);
    assert.throws(() => requantQ41ToQ80(Buffer.from('not a model at all, not a model at all')), LocalModelError);
  });

  it('converts a block exactly where Q8_0 can hold it: zeros, and values on the 127-step grid', () => {
    const zero = Buffer.alloc(20);
    assert.deepEqual(dequantQ80(q41ToQ80(zero)), new Array(32).fill(0));
    // d = 1, m = -15 in Q4_1 (nibbles 0..15 -> -15..0): the Q8_0 scale is 15/127, so -15 and 0 come back exactly.
    const b = Buffer.alloc(20);
    b.writeUInt16LE(floatToHalf(1), 0);
    b.writeUInt16LE(floatToHalf(-15), 2);
    b[4] = 0xf0; // value 0 (nibble 0 -> -15) and value 16 (nibble 15 -> 0)
    const y = dequantQ80(q41ToQ80(b));
    assert.ok(Math.abs(y[0]! + 15) < 0.01 && y[16] === 0, `${y[0]}, ${y[16]}`);
  });

  it('rounds halves to the nearest even half (as F16C)', () => {
    assert.equal(floatToHalf(1), 0x3c00);
    assert.equal(floatToHalf(-2), 0xc000);
    assert.equal(floatToHalf(65504), 0x7bff);
    assert.equal(floatToHalf(1e6), 0x7c00);
    assert.equal(floatToHalf(1 + 2 ** -11), 0x3c00, 'tie, to even');
    assert.equal(floatToHalf(1 + 3 * 2 ** -11), 0x3c02, 'tie, to even (up)');
    assert.equal(floatToHalf(2 - 2 ** -12), 0x4000, 'carry into the exponent');
    assert.equal(floatToHalf(2 ** -24), 0x0001, 'smallest subnormal');
    assert.equal(floatToHalf(2 ** -26), 0x0000);
    for (const h of [0x3555, 0x0001, 0x03ff, 0x7bff, 0x8400]) assert.equal(floatToHalf(halfToFloat(h)), h);
  });
});
