import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StagedVectors, stridedRows } from '../../kg-build/staged-vectors.js';

const row = (i: number) => Float32Array.from([i, -i, i / 2]);

describe('kg-build staged vectors (the IVF record index embeds once)', () => {
  it('gives back the rows written, sampled rows and every row in batches, with their ids', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'staged-')), 'v.tmp');
    const s = new StagedVectors(path);
    for (let start = 0; start < 10; start += 4) {
      const ids = Array.from({ length: Math.min(4, 10 - start) }, (_, i) => `r${start + i}`);
      await s.write(ids, ids.map((_, i) => row(start + i)));
    }
    await assert.rejects(s.rowsAt([0]), /before close/);
    await s.close();
    assert.equal(s.size, 10);
    assert.deepEqual((await s.rowsAt([0, 3, 9])).map((v) => [...v]), [0, 3, 9].map((i) => [...row(i)]));
    await assert.rejects(s.rowsAt([10]), /past the 10 staged rows/);
    const batches = [];
    for await (const c of s.chunks(3)) batches.push(c);
    assert.deepEqual(batches.map((b) => b.ids), [['r0', 'r1', 'r2'], ['r3', 'r4', 'r5'], ['r6', 'r7', 'r8'], ['r9']]);
    assert.deepEqual(batches.flatMap((b) => b.vectors.map((v) => [...v])), Array.from({ length: 10 }, (_, i) => [...row(i)]));
    await s.remove();
    assert.ok(!existsSync(path));
  });

  it('refuses rows of another length; remove() before close() deletes the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'staged-')), 'v.tmp');
    const s = new StagedVectors(path);
    await s.write(['a'], [row(1)]);
    await assert.rejects(s.write(['b'], [new Float32Array(2)]), /length 2/);
    await s.remove();
    assert.ok(!existsSync(path));
  });

  it('strides a sample from the first row to near the last', () => {
    assert.deepEqual(stridedRows(10, 4), [0, 2, 5, 7]);
    assert.deepEqual(stridedRows(3, 3), [0, 1, 2]);
  });
});
