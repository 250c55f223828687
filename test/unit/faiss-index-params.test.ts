import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromBuffer, patchHnswParams, patchIvfNprobe, patchIvfQuantizerHnsw, readHnswParams, readIvfNprobe, readIvfQuantizerHnsw } from '../../src/adapters/faiss/index-params.js';
import { faiss } from '../../src/adapters/faiss/native.js';
import { defaultNlist, defaultNprobe, FaissVectorIndex, HNSW_DEFAULTS, HNSW_QUANTIZER_FROM_LISTS, quantizerEfSearch, type CreateIndexOptions } from '../../src/adapters/faiss/vector-index.js';
import { InputError } from '../../src/errors.js';
import { seededRandom } from '../../src/util/rng.js';

/** Real faiss-node: the params are patched into FAISS's own serialized form, so only the real reader can tell. */

const DIM = 24;
const N = 3000;
const K = 10;

// Uniform random vectors: no cluster structure, so a thin HNSW graph / one IVF list misses neighbours.
const rnd = seededRandom(11);
const rows = Array.from({ length: N }, () => Float32Array.from({ length: DIM }, () => rnd() - 0.5));
const ids = rows.map((_, i) => `v${i}`);
const queries = Array.from({ length: 80 }, () => Float32Array.from({ length: DIM }, () => rnd() - 0.5));
const exact = FaissVectorIndex.build({ kind: 'flat', dim: DIM, ids, vectors: rows });
const truth = queries.map((q) => new Set(exact.search(q, K).map((h) => h.id)));

function recall(index: FaissVectorIndex): number {
  let hit = 0;
  queries.forEach((q, i) => (hit += index.search(q, K).filter((h) => truth[i]!.has(h.id)).length));
  return hit / (queries.length * K);
}

const build = (o: Omit<CreateIndexOptions, 'dim'>) => FaissVectorIndex.build({ ...o, dim: DIM, ids, vectors: rows });

describe('FAISS index params (efSearch / efConstruction / nprobe patched into the serialized index)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dx-faiss-params-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('reads FAISS defaults from a fresh HNSW buffer and writes what it is asked', () => {
    const f = faiss();
    const buf = f.Index.fromFactory(DIM, 'HNSW8,Flat', f.MetricType.METRIC_INNER_PRODUCT).toBuffer();
    assert.deepEqual(readHnswParams(fromBuffer(buf)), { efConstruction: 40, efSearch: 16 });
    patchHnswParams(buf, { efSearch: 123 });
    assert.deepEqual(readHnswParams(fromBuffer(f.Index.fromBuffer(buf).toBuffer())), { efConstruction: 40, efSearch: 123 });
  });

  it('creates HNSW with the defaults, or the given efConstruction / efSearch, kept through save + load', async () => {
    const path = join(dir, 'h.faiss');
    await build({ kind: 'hnsw', hnswM: 4 }).save(path);
    assert.deepEqual(readHnswParams(fromBuffer(await readFile(path))), { efConstruction: HNSW_DEFAULTS.efConstruction, efSearch: HNSW_DEFAULTS.efSearch });
    await build({ kind: 'hnsw', hnswM: 4, hnswEfConstruction: 12, hnswEfSearch: 33 }).save(path);
    assert.deepEqual(readHnswParams(fromBuffer(await readFile(path))), { efConstruction: 12, efSearch: 33 });
  });

  it('a larger efSearch buys recall, and a loaded index searches with the saved efSearch', async () => {
    const thin = { kind: 'hnsw', hnswM: 4, hnswEfConstruction: 10 } as const;
    const low = build({ ...thin, hnswEfSearch: K });
    const high = build({ ...thin, hnswEfSearch: 200 });
    const [lowRecall, highRecall] = [recall(low), recall(high)];
    assert.ok(lowRecall < 0.9, `efSearch ${K}: recall ${lowRecall}`);
    assert.ok(highRecall > lowRecall + 0.05 && highRecall >= 0.9, `efSearch 200: recall ${highRecall} vs ${lowRecall}`);

    const path = join(dir, 'low.faiss');
    await low.save(path);
    const loaded = await FaissVectorIndex.load(path);
    assert.equal(recall(loaded), lowRecall);
    queries.forEach((q) => assert.deepEqual(loaded.search(q, K), low.search(q, K)));
  });

  it('IVF probes nprobe lists: all lists give exact results, one list does not; saved with the index', async () => {
    const all = build({ kind: 'ivf', nlist: 16, nprobe: 16 });
    const one = build({ kind: 'ivf', nlist: 16, nprobe: 1 });
    assert.equal(recall(all), 1);
    assert.ok(recall(one) < 0.8, `nprobe 1: recall ${recall(one)}`);
    const path = join(dir, 'ivf.faiss');
    await one.save(path);
    assert.equal(readIvfNprobe(fromBuffer(await readFile(path))), 1);
    await all.save(path);
    assert.equal(readIvfNprobe(fromBuffer(await readFile(path))), 16);
  });

  it('many IVF lists get an HNSW quantizer whose efSearch covers nprobe (the FAISS default 16 would cap it), saved with the index', async () => {
    const f = faiss();
    const buf = f.Index.fromFactory(DIM, 'IVF64_HNSW32,Flat', f.MetricType.METRIC_INNER_PRODUCT).toBuffer();
    assert.deepEqual(readIvfQuantizerHnsw(fromBuffer(buf)), { efConstruction: 40, efSearch: 16 });
    patchIvfQuantizerHnsw(buf, { efSearch: 77 });
    assert.deepEqual(readIvfQuantizerHnsw(fromBuffer(f.Index.fromBuffer(buf).toBuffer())), { efConstruction: 40, efSearch: 77 });
    assert.throws(() => readIvfQuantizerHnsw(fromBuffer(f.Index.fromFactory(DIM, 'IVF64,Flat', f.MetricType.METRIC_INNER_PRODUCT).toBuffer())), InputError, 'a flat quantizer is not an HNSW one');

    // The default picks it from HNSW_QUANTIZER_FROM_LISTS lists; asked for here, as 2048 lists train too slowly for a unit test.
    const index = build({ kind: 'ivf', nlist: 32, quantizer: 'hnsw' });
    const path = join(dir, 'ivf-hnsw.faiss');
    await index.save(path);
    const saved = fromBuffer(await readFile(path));
    assert.equal(readIvfNprobe(saved), defaultNprobe(32));
    assert.deepEqual(readIvfQuantizerHnsw(saved), { efConstruction: 40, efSearch: quantizerEfSearch(defaultNprobe(32)) });
    assert.equal(recall(build({ kind: 'ivf', nlist: 32, nprobe: 32, quantizer: 'hnsw' })), 1, 'all lists probed: exact');
    assert.ok(HNSW_QUANTIZER_FROM_LISTS > defaultNlist(499_999), 'below 500k records the quantizer stays flat');
    assert.ok(HNSW_QUANTIZER_FROM_LISTS <= defaultNlist(500_000));
  });

  it('IVF sizing: ~sqrt(n) lists up to 500k, then ~128 rows per list; probes grow with the lists', () => {
    assert.equal(defaultNlist(100_000), 316);
    assert.equal(defaultNlist(1_000_000), 7813);
    assert.equal(defaultNprobe(316), 5);
    assert.equal(defaultNprobe(7813), 16);
    assert.ok(defaultNlist(1000) * 39 <= 1000, 'at least 39 training rows per list');
  });

  it('rejects a buffer of another index type and non-positive values', () => {
    const flatBuf = new (faiss().IndexFlatIP)(DIM).toBuffer();
    assert.throws(() => patchHnswParams(flatBuf, { efSearch: 10 }), InputError);
    assert.throws(() => patchIvfNprobe(flatBuf, 2), InputError);
    assert.throws(() => build({ kind: 'hnsw', hnswEfSearch: 0 }), InputError);
    assert.throws(() => FaissVectorIndex.create({ kind: 'ivf', dim: DIM, nlist: 4, nprobe: 1.5 }), InputError);
  });
});
