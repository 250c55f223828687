import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allot, kmeans, twoLevelKmeans } from '../../src/adapters/faiss/two-level-kmeans.js';
import { defaultNprobe, FaissVectorIndex, HNSW_QUANTIZER_FROM_LISTS, quantizerEfSearch } from '../../src/adapters/faiss/vector-index.js';
import { fromBuffer, readIvfNprobe, readIvfQuantizerHnsw } from '../../src/adapters/faiss/index-params.js';
import { seededRandom } from '../../src/util/rng.js';

const DIM = 16;

/** `centres` random unit centres, `per` noisy unit rows around each, row-major; interleaved so no prefix is one cluster. */
function planted(centres: number, per: number, noise: number, seed: number): Float32Array {
  const rnd = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const unit = (v: Float32Array) => {
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
  const c = Array.from({ length: centres }, () => unit(Float32Array.from({ length: DIM }, gauss)));
  const out = new Float32Array(centres * per * DIM);
  for (let i = 0; i < per; i++) for (let k = 0; k < centres; k++) out.set(unit(c[k]!.map((x) => x + noise * gauss())), (i * centres + k) * DIM);
  return out;
}

const dotAt = (a: Float32Array, i: number, b: Float32Array, j: number) => {
  let s = 0;
  for (let d = 0; d < DIM; d++) s += a[i * DIM + d]! * b[j * DIM + d]!;
  return s;
};

/** The index L2-normalises what it is given (vector-rows.ts normalizedRowsAt), in this arithmetic. */
function renormalized(rows: Float32Array): Float32Array {
  const out = new Float32Array(rows.length);
  for (let r = 0; r < rows.length / DIM; r++) {
    let norm = 0;
    for (let i = 0; i < DIM; i++) norm += rows[r * DIM + i]! * rows[r * DIM + i]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < DIM; i++) out[r * DIM + i] = rows[r * DIM + i]! * scale;
  }
  return out;
}

describe('faiss two-level k-means (IVF centroids for many lists)', () => {
  it('allots every centroid, in proportion, never more than a cell has rows', () => {
    const shares = allot([100, 1, 0, 49, 3], 20);
    assert.equal(shares.reduce((a, b) => a + b, 0), 20);
    assert.deepEqual(shares, [13, 0, 0, 7, 0]);
    assert.deepEqual(allot([2, 2, 2], 6), [2, 2, 2]);
    assert.throws(() => allot([1, 1], 3), RangeError);
  });

  it('quantizes planted clusters about as well as one-level k-means, with unit centroids, deterministically', () => {
    const rows = planted(60, 10, 0.08, 3);
    const k = 60;
    // Mean over rows of the similarity to their nearest centroid.
    const quality = (c: Float32Array) => {
      let sum = 0;
      for (let i = 0; i < rows.length / DIM; i++) {
        let best = -1;
        for (let j = 0; j < k; j++) best = Math.max(best, dotAt(rows, i, c, j));
        sum += best;
      }
      return sum / (rows.length / DIM);
    };
    const c = twoLevelKmeans(rows, DIM, k);
    assert.equal(c.length, k * DIM);
    for (let j = 0; j < k; j++) assert.ok(Math.abs(dotAt(c, j, c, j) - 1) < 1e-5, 'unit centroid');
    const two = quality(c);
    const one = quality(kmeans(rows, DIM, k, { iterations: 20 }));
    assert.ok(two > 0.9 && two > one - 0.03, `two-level ${two.toFixed(4)} vs one-level ${one.toFixed(4)}`);
    assert.deepEqual(twoLevelKmeans(rows, DIM, k), c);
    assert.throws(() => twoLevelKmeans(rows.subarray(0, 10 * DIM), DIM, 11), RangeError);
  });

  it('an IVF index with many lists takes its centroids from it and finds stored rows', async () => {
    const nlist = HNSW_QUANTIZER_FROM_LISTS;
    const rows = planted(nlist, 2, 0.05, 9);
    const index = FaissVectorIndex.create({ kind: 'ivf', dim: DIM, nlist });
    index.train(rows);
    const n = rows.length / DIM;
    index.add(Array.from({ length: n }, (_, i) => `r${i}`), rows);
    let found = 0;
    for (let i = 0; i < 200; i++) if (index.search(rows.subarray(i * 17 * DIM, (i * 17 + 1) * DIM), 1)[0]?.id === `r${i * 17}`) found++;
    assert.ok(found >= 195, `stored rows found (${found} / 200)`);
    // The saved index holds the two-level centroids verbatim (FAISS copied them, it ran no k-means of its own).
    const path = join(mkdtempSync(join(tmpdir(), 'km2-')), 'ivf.faiss');
    await index.save(path);
    assert.ok((await readFile(path)).indexOf(Buffer.from(twoLevelKmeans(renormalized(rows), DIM, nlist).buffer)) > 0);
  });

  it('rows added through the flat staging quantizer are saved under the HNSW one (swapped in the file, as merged in memory), ids kept; later adds still work', async () => {
    const nlist = HNSW_QUANTIZER_FROM_LISTS;
    const rows = planted(nlist, 2, 0.05, 11);
    const n = rows.length / DIM;
    const index = FaissVectorIndex.create({ kind: 'ivf', dim: DIM, nlist });
    index.train(rows);
    const half = (n / 2) * DIM;
    index.add(Array.from({ length: n / 2 }, (_, i) => `r${i}`), rows.subarray(0, half));
    index.add(Array.from({ length: n / 2 }, (_, i) => `r${n / 2 + i}`), rows.subarray(half));
    const path = join(mkdtempSync(join(tmpdir(), 'km2-')), 'ivf.faiss');
    await index.save(path);
    const file = fromBuffer(await readFile(path));
    assert.equal(readIvfNprobe(file), defaultNprobe(nlist));
    assert.equal(readIvfQuantizerHnsw(file).efSearch, quantizerEfSearch(defaultNprobe(nlist)), 'the saved quantizer is the HNSW one, at its search efSearch');
    const loaded = await FaissVectorIndex.load(path);
    assert.equal(loaded.size, n);
    let found = 0;
    for (let i = 0; i < 200; i++) {
      const row = i * 20 + 3; // both halves: the second add's ids continue the first's
      if (loaded.search(rows.subarray(row * DIM, (row + 1) * DIM), 1)[0]?.id === `r${row}`) found++;
    }
    assert.ok(found >= 195, `stored rows found under their ids (${found} / 200)`);
    // An in-memory search moves the lists under the HNSW quantizer (merge_from): saved again, the
    // same bytes as the quantizer swapped in the file.
    assert.equal(index.search(rows.subarray(3 * DIM, 4 * DIM), 1)[0]?.id, 'r3');
    const merged = join(mkdtempSync(join(tmpdir(), 'km2-')), 'ivf.faiss');
    await index.save(merged);
    assert.ok((await readFile(merged)).equals(await readFile(path)), 'swapped in the file = merged in memory');
    // After the move, an add goes through the HNSW quantizer and is found too.
    const extra = planted(4, 1, 0.01, 12);
    index.add(['x0', 'x1', 'x2', 'x3'], extra);
    assert.equal(index.search(extra.subarray(2 * DIM, 3 * DIM), 1)[0]?.id, 'x2');
  });
});
