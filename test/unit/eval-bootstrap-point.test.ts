import assert from 'node:assert/strict';
import { bootstrapPoints } from '../../src/eval/bootstrap-point.js';
import { calibrationMetrics, point, type ProbabilityCase } from '../../src/eval/calibration-metrics.js';
import { seededRandom } from '../../src/util/rng.js';

/** Cases with many tied top-1 probabilities (a differential's rounded figures), hits more likely when sure. */
function cases(n: number, seed: number, hitRate = 1): ProbabilityCase[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const top = rnd() < 0.4 ? [0.25, 0.5, 0.9][Math.floor(rnd() * 3)]! : rnd();
    const correct = rnd() < top * hitRate;
    const truth = correct ? top : rnd() < 0.3 ? 0.001 : rnd() * (1 - top);
    return { top, correct, truth, brier: (1 - truth) ** 2 + rnd() * 0.1 };
  });
}

describe('eval: calibration metrics of a bootstrap resample from shared per-case figures (issue 49)', () => {
  it('equal to the metrics over the drawn cases, to the bit, ties and repeated draws included', () => {
    for (const seed of [1, 2, 3]) {
      const cs = cases(150, seed);
      const pointOf = bootstrapPoints(cs);
      const rnd = seededRandom(seed + 100);
      for (let r = 0; r < 200; r++) {
        const drawn = Int32Array.from(cs, () => Math.floor(rnd() * cs.length));
        assert.deepEqual(pointOf(drawn), point(Array.from(drawn, (i) => cs[i]!)), `seed ${seed}, resample ${r}`);
      }
    }
  });

  it('gives no AUROC when every drawn case is right (as auroc.ts), and the rest as over the drawn cases', () => {
    const cs = cases(40, 5, 0).map((c, i) => ({ ...c, correct: i % 2 === 0 }));
    const pointOf = bootstrapPoints(cs);
    const evens = Int32Array.from({ length: 40 }, (_, k) => (2 * k) % 40);
    const got = pointOf(evens);
    assert.equal(got.auroc, null);
    assert.deepEqual(got, point(Array.from(evens, (i) => cs[i]!)));
  });

  it("calibrationMetrics' intervals are percentiles of resamples that differ (the bootstrap draws, not one case set repeated)", () => {
    const m = calibrationMetrics(cases(120, 9), { seed: 4, resamples: 300 })!;
    for (const k of ['ece', 'brier', 'log_loss', 'truth_under_1pct'] as const) assert.ok(m.ci95[k][0] < m.ci95[k][1], k);
    assert.ok(m.ci95.auroc && m.ci95.auroc[0] < m.ci95.auroc[1]);
  });
});
