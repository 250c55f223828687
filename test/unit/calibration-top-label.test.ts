import assert from 'node:assert/strict';
import { applyTopLabel, fitTopLabel, topLabelValue } from '../../src/calibration/top-label.js';
import { calibratedPosterior } from '../../src/calibration/temperature.js';
import { fitCalibrationParams } from '../../src/calibration/fit-temperature.js';
import { seededRandom } from '../../src/util/rng.js';

describe('calibration: top-label (the first disease\'s probability by an isotonic fit)', () => {
  it('fits a non-decreasing map with blocks of at least the minimum size', () => {
    const rng = seededRandom(3);
    // Overconfident: a shown p is right with probability p − 0.2.
    const pairs = Array.from({ length: 400 }, () => {
      const p = 0.3 + 0.7 * rng();
      return { p, right: rng() < p - 0.2 };
    });
    const m = fitTopLabel(pairs, 40)!;
    assert.ok(m.x.length >= 2);
    for (let i = 1; i < m.x.length; i++) {
      assert.ok(m.x[i]! > m.x[i - 1]!, 'centres ascend');
      assert.ok(m.y[i]! > m.y[i - 1]!, 'accuracy ascends');
    }
    // Each block's accuracy is about its mean p − 0.2.
    for (let i = 0; i < m.x.length; i++) assert.ok(Math.abs(m.y[i]! - (m.x[i]! - 0.2)) < 0.15, `block ${i}: ${m.x[i]} → ${m.y[i]}`);
    assert.equal(fitTopLabel(pairs.slice(0, 50), 40), null, 'fewer than two blocks of cases: no map');
  });

  it('interpolates between block centres and runs to (1, 1) and towards 0 outside them', () => {
    const m = { x: [0.4, 0.8], y: [0.3, 0.6] };
    assert.ok(Math.abs(topLabelValue(m, 0.6) - 0.45) < 1e-12);
    assert.ok(Math.abs(topLabelValue(m, 0.2) - 0.15) < 1e-12);
    assert.ok(Math.abs(topLabelValue(m, 1) - 1) < 1e-12);
    assert.ok(Math.abs(topLabelValue(m, 0.9) - 0.8) < 1e-12);
  });

  it('rescales the others by the same factor, keeps the sum at 1 and never reorders', () => {
    const rng = seededRandom(9);
    for (let t = 0; t < 200; t++) {
      const raw = Float64Array.from({ length: 12 }, () => rng() ** 4);
      const z = raw.reduce((a, v) => a + v, 0);
      const p = raw.map((v) => v / z);
      const before = [...p.keys()].sort((a, b) => p[b]! - p[a]! || a - b);
      const q = Float64Array.from(p);
      applyTopLabel(q, { x: [0.2, 0.5, 0.9], y: [0.05, 0.2, 0.4] });
      assert.ok(Math.abs(q.reduce((a, v) => a + v, 0) - 1) < 1e-9);
      assert.ok(q[before[0]!]! >= Math.max(...[...q].filter((_, i) => i !== before[0])), 'the first stays first (at worst level with the second)');
      for (let i = 2; i < before.length; i++) assert.ok(q[before[i - 1]!]! >= q[before[i]!]! - 1e-15, 'the rest keep their order');
    }
  });

  it('is kept by the fit only where it lowers the held-out NLL, and applied by calibratedPosterior', () => {
    const rng = seededRandom(4);
    // Scores that make the first disease far likelier than it is right: the map must lower it.
    const samples = Array.from({ length: 300 }, () => {
      const scores = Float64Array.from({ length: 6 }, () => rng());
      const top = scores.indexOf(Math.max(...scores));
      scores[top]! += 1.5;
      const truth = rng() < 0.55 ? top : Math.floor(rng() * 6);
      return { scores, truth, completeness: 1 };
    });
    const fit = fitCalibrationParams(samples);
    if (fit.topLabel) {
      const withMap = calibratedPosterior(samples[0]!.scores, fit, 1).probs;
      const without = calibratedPosterior(samples[0]!.scores, { ...fit, topLabel: null }, 1).probs;
      assert.notDeepEqual([...withMap], [...without]);
      assert.ok(fit.nllAfter < fit.nllBefore);
    }
    const mean = samples.reduce((a, s) => a + Math.max(...calibratedPosterior(s.scores, fit, 1).probs), 0) / samples.length;
    const right = samples.filter((s) => { const p = calibratedPosterior(s.scores, fit, 1).probs; return p.indexOf(Math.max(...p)) === s.truth; }).length / samples.length;
    assert.ok(Math.abs(mean - right) < 0.05, `mean top-1 ${mean.toFixed(3)} vs right ${right.toFixed(3)} on the fit set`);
  });
});
