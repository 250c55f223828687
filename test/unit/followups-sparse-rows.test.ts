import { strict as assert } from 'node:assert';
import { ddxplusSampleSnapshot } from '../../bench/scale/ddxplus-snapshot.js';
import { FollowupModel } from '../../src/followups/model.js';
import { addBernoulli, addFeatureEvidence } from '../../src/followups/posterior.js';
import { followupKgFromSnapshot } from '../../src/followups/snapshot-kg.js';
import { denseRow, RowCache, sparseRow, valueAt } from '../../src/followups/sparse-rows.js';

/** The follow-up model's sparse rows (issue 29) read as the dense rows did, and the row cache stays within its bound. */
describe('follow-ups: sparse count rows and the bounded row cache (issue 29)', () => {
  it('valueAt and denseRow read what was stored, 0 elsewhere', () => {
    const row = sparseRow(new Map([[7, 2], [1, 5], [30, 0.5]]));
    assert.deepEqual([...row.idx], [1, 7, 30]);
    assert.deepEqual([0, 1, 2, 7, 29, 30, 31].map((d) => valueAt(row, d)), [0, 5, 0, 2, 0, 0.5, 0]);
    assert.equal(valueAt(undefined, 3), 0);
    const dense = denseRow(row, 32);
    assert.equal(dense.length, 32);
    assert.equal(dense[7], 2);
    assert.equal(dense.reduce((a, v) => a + v, 0), 7.5);
  });

  it('the cache evicts the least recently used row past its byte bound', () => {
    const cache = new RowCache(3 * 80);
    let made = 0;
    const get = (k: string) => cache.get(k, () => (made++, new Float64Array(10)));
    get('a'); get('b'); get('c'); get('a'); get('d'); // 'b' is the oldest unused: evicted
    assert.equal(made, 4);
    get('a'); get('c'); get('d');
    assert.equal(made, 4);
    get('b');
    assert.equal(made, 5);
  });

  it('on the DDXPlus sample: counts, P(f | d) and evidence equal the dense computation bit for bit', async () => {
    const { snapshot } = await ddxplusSampleSnapshot({ cases: 1 });
    const model = new FollowupModel(followupKgFromSnapshot(snapshot), { rowCacheBytes: 4096 });
    for (const f of model.features) {
      const counts = model.countsOf(f.id);
      const p = model.bernoulli(f.id);
      model.diseases.forEach((_, d) => {
        assert.equal(model.countAt(f.id, d), counts[d]);
        assert.equal(model.bernoulliAt(f.id, d), p[d]);
      });
      for (const present of [true, false]) {
        const sparse = Float64Array.from(model.logPrior);
        const dense = Float64Array.from(model.logPrior);
        addFeatureEvidence(sparse, model, f.id, present);
        addBernoulli(dense, model.bernoulli(f.id), present);
        assert.deepEqual(sparse, dense, f.id);
      }
    }
  });
});
