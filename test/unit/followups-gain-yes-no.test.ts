import assert from 'node:assert/strict';
import { FollowupModel, type FollowupKg } from '../../src/followups/model.js';
import { expectedEntropyYesNo, yesNoBaseline } from '../../src/followups/gain-yes-no.js';
import { seededRandom } from '../../src/util/rng.js';

/** The definition: Σ_a m_a · H(D | a) over every live disease, with P(yes | d) read row by row. */
function dense(model: FollowupModel, p: Float64Array, live: number[], f: string): number {
  let total = 0;
  for (const yes of [true, false]) {
    const x = live.map((i) => p[i]! * (yes ? model.bernoulliAt(f, i) : 1 - model.bernoulliAt(f, i)));
    const m = x.reduce((a, v) => a + v, 0);
    if (m <= 0) continue;
    total += -x.reduce((a, v) => a + (v > 0 ? (v / m) * Math.log(v / m) : 0), 0) * m;
  }
  return total;
}

describe('follow-ups: a yes/no question\'s expected entropy at the cost of its edges (issue 29)', () => {
  it('equals the dense sum over every live disease, for random KGs, posteriors and live sets', () => {
    const rng = seededRandom(5);
    for (let trial = 0; trial < 20; trial++) {
      const D = 5 + Math.floor(rng() * 40);
      const F = 10 + Math.floor(rng() * 30);
      const diseases = Array.from({ length: D }, (_, d) => ({ id: `d${d}`, name: `d${d}`, recordCount: 1 + Math.floor(rng() * 30) }));
      const features = Array.from({ length: F }, (_, f) => ({ id: `f${f}`, text: `f${f}`, code: null, valueCode: null, question: null, valueText: null, antecedent: null }));
      const manifestations: FollowupKg['manifestations'][number][] = [];
      for (let d = 0; d < D; d++) for (let f = 0; f < F; f++) if (rng() < 0.2) {
        const n = diseases[d]!.recordCount;
        const count = 1 + Math.floor(rng() * n);
        manifestations.push({ diseaseId: `d${d}`, featureId: `f${f}`, prevalence: count / n, count });
      }
      const model = new FollowupModel({ diseases, features, manifestations });
      const raw = Float64Array.from({ length: D }, () => rng() ** 3);
      const z = raw.reduce((a, v) => a + v, 0);
      const p = raw.map((v) => v / z);
      const live = [...p.keys()].filter((i) => p[i]! >= 0.01);
      const base = yesNoBaseline(model, p, live);
      for (const f of model.features) {
        const got = expectedEntropyYesNo(model, p, base, f.id);
        const want = dense(model, p, live, f.id);
        assert.ok(Math.abs(got - want) < 1e-9, `trial ${trial} ${f.id}: ${got} vs ${want}`);
      }
    }
  });

  it('gives a question no live disease has shown the entropy of the unseen rates alone', () => {
    const model = new FollowupModel({ diseases: [{ id: 'a', name: 'a', recordCount: 10 }, { id: 'b', name: 'b', recordCount: 10 }], features: [{ id: 'x', text: 'x', code: null, valueCode: null, question: null, valueText: null, antecedent: null }], manifestations: [{ diseaseId: 'b', featureId: 'x', prevalence: 0.9, count: 9 }] });
    const p = Float64Array.from([0.5, 0.5]);
    const onlyA = yesNoBaseline(model, p, [0]);
    assert.ok(Math.abs(expectedEntropyYesNo(model, p, onlyA, 'x') - dense(model, p, [0], 'x')) < 1e-12);
    assert.equal(expectedEntropyYesNo(model, p, onlyA, 'x'), 0, 'one live disease: nothing left to learn');
  });
});
