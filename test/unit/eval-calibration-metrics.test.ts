import assert from 'node:assert/strict';
import { calibrationMetrics, expectedCalibrationError, probabilityCase, reliabilityBins, type ProbabilityCase } from '../../src/eval/calibration-metrics.js';
import { reliabilityDiagram } from '../../src/eval/reliability-svg.js';

const pc = (top: number, correct: boolean, truth = correct ? top : 0.05, brier = 0): ProbabilityCase => ({ top, correct, truth, brier });

describe('calibration metrics (issue 26)', () => {
  it('probabilityCase: truth listed, truth unlisted (even share of the rest), multi-class Brier', () => {
    const listed = [{ diseaseId: 'a', p: 0.6 }, { diseaseId: 'b', p: 0.3 }];
    const hit = probabilityCase(listed, 'b', 4); // unlisted c, d share 0.1 → 0.05 each
    assert.equal(hit.top, 0.6);
    assert.equal(hit.correct, false);
    assert.equal(hit.truth, 0.3);
    assert.ok(Math.abs(hit.brier - (0.36 + 0.49 + 2 * 0.0025)) < 1e-12);
    const miss = probabilityCase(listed, 'd', 4);
    assert.ok(Math.abs(miss.truth - 0.05) < 1e-12);
    assert.ok(Math.abs(miss.brier - (0.36 + 0.09 + 0.0025 + 0.95 ** 2)) < 1e-12);
    const right = probabilityCase(listed, 'a', 2);
    assert.equal(right.correct, true);
    assert.ok(Math.abs(right.brier - (0.16 + 0.09)) < 1e-12);
  });

  it('ECE: 0 when each bin is right as often as it says, the gap weighted by bin size otherwise', () => {
    const honest = [pc(0.95, true), pc(0.25, true), pc(0.25, false), pc(0.25, false), pc(0.25, false)];
    // bin 9: conf .95, acc 1 → .05 × 1/5; bin 2: conf .25, acc .25 → 0
    assert.ok(Math.abs(expectedCalibrationError(honest) - 0.01) < 1e-12);
    const over = Array.from({ length: 10 }, (_, i) => pc(0.9, i < 5)); // says 90%, right 50%
    assert.ok(Math.abs(expectedCalibrationError(over) - 0.4) < 1e-12);
    const bins = reliabilityBins(over);
    assert.equal(bins.length, 10);
    assert.equal(bins[9]!.n, 10);
    assert.equal(bins[9]!.accuracy, 0.5);
    assert.equal(bins[0]!.confidence, null);
  });

  it('a probability of exactly 1 falls in the last bin', () => {
    assert.equal(reliabilityBins([pc(1, true)])[9]!.n, 1);
  });

  it('log-loss, truth under 1%, AUROC and bootstrap intervals that contain the point estimate', () => {
    const cases = [
      ...Array.from({ length: 30 }, (_, i) => pc(0.9, true, 0.9, 0.02 + i / 1000)),
      ...Array.from({ length: 10 }, () => pc(0.6, false, 0.005, 1.1)),
    ];
    const m = calibrationMetrics(cases, { resamples: 200, seed: 3 })!;
    assert.equal(m.n, 40);
    assert.equal(m.accuracy, 0.75);
    assert.equal(m.auroc, 1); // every right answer had a higher top-1 probability than every wrong one
    assert.equal(m.truth_under_1pct, 0.25);
    assert.ok(Math.abs(m.log_loss - (30 * -Math.log(0.9) + 10 * -Math.log(0.005)) / 40) < 1e-12);
    for (const k of ['ece', 'brier', 'log_loss', 'truth_under_1pct'] as const) {
      const [lo, hi] = m.ci95[k];
      assert.ok(lo <= hi, k);
      assert.ok(lo <= m[k] + 1e-9 || k === 'ece', `${k}: ${lo} ≤ ${m[k]}`); // ECE's bootstrap is biased upward
      assert.ok(hi >= m[k] - 1e-9, `${k}: ${hi} ≥ ${m[k]}`);
    }
    assert.deepEqual(calibrationMetrics(cases, { resamples: 200, seed: 3 }), m, 'seeded: reproducible');
    // The noise floor: a perfectly calibrated system on 40 cases still shows some ECE, less than this miscalibrated one's.
    assert.ok(m.ece_if_calibrated > 0 && m.ece_if_calibrated < m.ece, `${m.ece_if_calibrated} < ${m.ece}`);
    // Consistency resampling: calibrated draws almost never show this ECE; an exactly honest set is matched by every draw.
    assert.ok(m.ece_consistency_p < 0.05, String(m.ece_consistency_p));
    const honest = Array.from({ length: 100 }, (_, i) => pc(0.7, i < 70));
    assert.equal(calibrationMetrics(honest, { resamples: 200, seed: 3 })!.ece_consistency_p, 1);
    assert.equal(calibrationMetrics([]), null);
  });

  it('a truth given probability 0 costs a bounded log-loss (clipped at 1e-6)', () => {
    const m = calibrationMetrics([pc(1, false, 0)], { resamples: 10 })!;
    assert.ok(Math.abs(m.log_loss - -Math.log(1e-6)) < 1e-9);
  });

  it('the reliability diagram is static SVG with escaped series names', () => {
    const svg = reliabilityDiagram([{ name: '<full>', bins: reliabilityBins([pc(0.9, true), pc(0.3, false)]) }], { title: 'R' });
    assert.ok(svg.startsWith('<svg'));
    assert.ok(svg.includes('&lt;full&gt;'));
    assert.ok(!svg.includes('<script'));
  });
});
