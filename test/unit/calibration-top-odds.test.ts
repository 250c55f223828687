import assert from 'node:assert/strict';
import { fitCalibrationParams, top1Auroc } from '../../src/calibration/fit-temperature.js';
import { calibratedPosterior, scaledSoftmax } from '../../src/calibration/temperature.js';
import { applyTopOdds, fitTopOdds, rawTopLogOdds, topOddsValue } from '../../src/calibration/top-odds.js';
import { seededRandom } from '../../src/util/rng.js';

describe('calibration: top-odds (the first disease from the raw log-odds)', () => {
  it('rawTopLogOdds is the logit of the raw first probability, without saturating near 1', () => {
    const z = [0.3, 2, -1, 1.2];
    const p = scaledSoftmax(z, 1);
    const { top, logOdds } = rawTopLogOdds(z);
    assert.equal(top, 1);
    assert.ok(Math.abs(logOdds - Math.log(p[1]! / (1 - p[1]!))) < 1e-12);
    assert.ok(Math.abs(rawTopLogOdds([100, 0, -5]).logOdds - (100 - Math.log(1 + Math.exp(-5)))) < 1e-9, 'exact where the probability rounds to 1');
    assert.equal(rawTopLogOdds([3]).logOdds, Infinity);
  });

  it('fits a known logistic map of right/wrong on the log-odds, even with huge log-odds', () => {
    const rnd = seededRandom(3);
    const pairs = Array.from({ length: 4000 }, () => {
      const logOdds = 60 * rnd();
      return { logOdds, right: rnd() < 1 / (1 + Math.exp(-(0.2 * logOdds - 1))) };
    });
    const m = fitTopOdds(pairs)!;
    assert.ok(Math.abs(m.a - 0.2) < 0.05 && Math.abs(m.b + 1) < 0.4, JSON.stringify(m));
    assert.equal(fitTopOdds([]), null);
    const all = fitTopOdds(Array.from({ length: 50 }, (_, i) => ({ logOdds: i, right: true })))!;
    assert.ok(Number.isFinite(all.a) && all.a > 0 && Number.isFinite(all.b), 'every case right: still finite');
  });

  it('applies p1 = σ(a·L + b), the rest keep their shares, the sum stays 1 and nothing reorders', () => {
    const rnd = seededRandom(8);
    for (let t = 0; t < 200; t++) {
      const z = Float64Array.from({ length: 10 }, () => -30 * rnd());
      const probs = scaledSoftmax(z, 0.3 + rnd());
      const before = [...probs.keys()].sort((a, b) => probs[b]! - probs[a]! || a - b);
      const m = { a: 0.05 + rnd(), b: 4 * rnd() - 2 };
      const q = Float64Array.from(probs);
      applyTopOdds(q, z, m);
      assert.ok(Math.abs(q.reduce((a, v) => a + v, 0) - 1) < 1e-9);
      const top = before[0]!;
      assert.ok(q[top]! >= topOddsValue(m, rawTopLogOdds(z).logOdds) - 1e-12);
      for (let i = 1; i < before.length; i++) assert.ok(q[before[i - 1]!]! >= q[before[i]!]! - 1e-15);
      for (let i = 2; i < before.length; i++) assert.ok(Math.abs(q[before[i]!]! / q[before[1]!]! - probs[before[i]!]! / probs[before[1]!]!) < 1e-6, 'shares of the rest kept');
    }
  });

  it('is used by the fit when the calibrated first probability separates right from wrong worse than the raw one, and then keeps the raw order', () => {
    const rnd = seededRandom(12);
    // Completeness says nothing about being right, but low completeness comes with large gaps:
    // β(c) then reorders confidence across cases; the raw log-odds alone carry the signal.
    const samples = Array.from({ length: 200 }, () => {
      const c = rnd();
      const gap = 2 + 20 * rnd() * (1.5 - c);
      const scores = Float64Array.from({ length: 8 }, () => -5 - 10 * rnd());
      scores[0] = gap * 0.2;
      const right = rnd() < 1 / (1 + Math.exp(-(0.3 * gap - 1)));
      return { scores, truth: right ? 0 : 1 + Math.floor(rnd() * 7), completeness: c };
    });
    const fit = fitCalibrationParams(samples, [null], false);
    const raw = top1Auroc(samples, undefined);
    assert.ok(top1Auroc(samples, fit) >= raw - 1e-9, `${top1Auroc(samples, fit)} >= ${raw}`);
    if (fit.topOdds) {
      assert.equal(fit.topLabel ?? null, null);
      const p = calibratedPosterior(samples[0]!.scores, fit, samples[0]!.completeness).probs;
      assert.ok(Math.abs(p.reduce((a, v) => a + v, 0) - 1) < 1e-9);
    }
  });
});
