import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { faiss, nativeVectors } from '../../src/adapters/faiss/native.js';
import { patchIvfNprobe } from '../../src/adapters/faiss/index-params.js';
import { writeWithHnswQuantizer } from '../../src/adapters/faiss/quantizer-swap.js';

const D = 8;

function ivf(nlist: number, quantizer: 'flat' | 'hnsw', nprobe = 4) {
  const f = faiss();
  const buf = f.Index.fromFactory(D, quantizer === 'flat' ? `IVF${nlist},Flat` : `IVF${nlist}_HNSW32,Flat`, f.MetricType.METRIC_INNER_PRODUCT).toBuffer();
  patchIvfNprobe(buf, nprobe);
  const index = f.Index.fromBuffer(buf);
  index.train(nativeVectors(Float32Array.from({ length: nlist * D }, (_, i) => Math.sin(i + 1))));
  return index;
}

describe('faiss quantizer swap (an IVF staged behind a flat quantizer, saved behind an HNSW one)', () => {
  it('refuses an HNSW-quantized index of another list count or nprobe, and leaves no file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qswap-'));
    const staging = ivf(16, 'flat');
    for (const other of [ivf(32, 'hnsw'), ivf(16, 'hnsw', 5)]) {
      const out = join(dir, 'x.faiss');
      await assert.rejects(writeWithHnswQuantizer(staging, other.toBuffer(), out), (e: unknown) => e instanceof InputError && /list count or nprobe/.test(e.message));
      assert.ok(!existsSync(`${out}.flat-quantizer`), 'the staged file is removed');
    }
    const out = join(dir, 'ok.faiss');
    await writeWithHnswQuantizer(staging, ivf(16, 'hnsw').toBuffer(), out);
    const loaded = faiss().Index.read(out);
    assert.equal(loaded.ntotal(), 0);
    assert.equal(loaded.getDimension(), D);
  });
});
