import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { faiss, nativeVectors } from '../../src/adapters/faiss/native.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';

describe('faiss-node binding as set up (scripts/build-faiss-node.sh + patch-faiss-node.py)', () => {
  it('takes Float32Arrays in place: no number[] copy on add and search', () => {
    const v = new Float32Array([0.6, 0.8, 1, 0]);
    assert.equal(nativeVectors(v), v, 'the patched binding is loaded (setup builds it from source here)');
    const ix = new (faiss().IndexFlatIP)(2);
    ix.add(v as unknown as number[]);
    const r = ix.search(new Float32Array([0, 1]) as unknown as number[], 2);
    assert.deepEqual(r.labels, [0, 1]);
    assert.ok(Math.abs(r.distances[0]! - 0.8) < 1e-6);
  });

  it('still takes plain arrays, and rejects a Float32Array whose length is not a multiple of d', () => {
    const ix = new (faiss().IndexFlatIP)(2);
    ix.add([1, 0]);
    assert.equal(ix.ntotal(), 1);
    assert.throws(() => ix.add(new Float32Array([1, 0, 1]) as unknown as number[]), /array length/);
    assert.throws(() => ix.search(new Float32Array([1]) as unknown as number[], 1), /array length/);
  });

  it('an index filled from Float32Array views (subarrays) finds the same rows as from copies', () => {
    const dim = 8;
    const rows = Array.from({ length: 50 }, (_, i) => Float32Array.from({ length: dim }, (_, j) => Math.sin(i * 7 + j)));
    const big = new Float32Array(50 * dim);
    rows.forEach((r, i) => big.set(r, i * dim));
    const ids = rows.map((_, i) => `r${i}`);
    const a = FaissVectorIndex.build({ kind: 'flat', dim, ids, vectors: big });
    const b = FaissVectorIndex.build({ kind: 'flat', dim, ids, vectors: rows.map((r) => Float32Array.from(r)) });
    const q = rows.slice(3, 6);
    assert.deepEqual(a.searchMany(q, 5), b.searchMany(q, 5));
    assert.equal(a.search(big.subarray(10 * dim, 11 * dim), 1)[0]!.id, 'r10');
  });

  it('IVF trained by train() on a sample, then filled by adds, finds each row itself; train() is a no-op for flat', () => {
    const dim = 8;
    const rows = Array.from({ length: 400 }, (_, i) => Float32Array.from({ length: dim }, (_, j) => Math.sin(i * 1.7 + j * (1 + (i % 5)))));
    const ids = rows.map((_, i) => `r${i}`);
    const ivf = FaissVectorIndex.create({ kind: 'ivf', dim, nlist: 4, nprobe: 4 });
    ivf.train(rows.filter((_, i) => i % 3 === 0));
    ivf.add(ids.slice(0, 200), rows.slice(0, 200));
    ivf.add(ids.slice(200), rows.slice(200));
    assert.equal(ivf.size, 400);
    for (const i of [0, 123, 399]) assert.equal(ivf.search(rows[i]!, 1)[0]!.id, `r${i}`);
    const flat = FaissVectorIndex.create({ kind: 'flat', dim });
    flat.train(rows);
    assert.equal(flat.size, 0);
    assert.throws(() => FaissVectorIndex.create({ kind: 'ivf', dim, nlist: 50 }).train(rows.slice(0, 10)), /at least that many training vectors/);
  });
});
