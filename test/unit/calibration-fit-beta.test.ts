import assert from 'node:assert/strict';
import { clampBeta, fitBeta, meanShiftedNll, shiftCase } from '../../src/calibration/fit-beta.js';
import { fitCalibrationParams, meanNll, type CalibrationSample } from '../../src/calibration/fit-temperature.js';
import { inverseTemperature, scaledSoftmax, tailScores } from '../../src/calibration/temperature.js';
import { seededRandom } from '../../src/util/rng.js';

/**
 * The Newton fit as it was written before issue 49 (a probability vector per case and step, the
 * objective and the gradient in separate passes): the oracle the prepared-case fit must equal to the bit.
 */
function referenceFit(samples: readonly CalibrationSample[]): { b0: number; b1: number; nllAfter: number; iterations: number } {
  const RIDGE = 1e-3;
  const n = samples.length;
  const caseTerms = (s: CalibrationSample, beta: number) => {
    const p = scaledSoftmax(s.scores, beta);
    let mean = 0, sq = 0, max = -Infinity;
    for (let j = 0; j < p.length; j++) if (s.scores[j]! > max) max = s.scores[j]!;
    for (let j = 0; j < p.length; j++) {
      const z = s.scores[j]! - max;
      mean += p[j]! * z;
      sq += p[j]! * z * z;
    }
    return { nll: -Math.log(Math.max(p[s.truth]!, 1e-300)), g: mean - (s.scores[s.truth]! - max), h: Math.max(0, sq - mean * mean) };
  };
  const objective = (x: readonly [number, number]) => samples.reduce((a, s) => a + caseTerms(s, clampBeta(x, s.completeness)).nll, 0) + RIDGE * n * x[1] * x[1];
  let b: [number, number] = [1, 0];
  let f = objective(b);
  let it = 0;
  for (; it < 50; it++) {
    let g0 = 0, g1 = 2 * RIDGE * n * b[1], h00 = 0, h01 = 0, h11 = 2 * RIDGE * n;
    for (const s of samples) {
      const c = s.completeness;
      const t = caseTerms(s, clampBeta(b, c));
      g0 += t.g; g1 += t.g * c;
      h00 += t.h; h01 += t.h * c; h11 += t.h * c * c;
    }
    const det = h00 * h11 - h01 * h01;
    const step: [number, number] = det > 1e-12 ? [(h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det] : [g0 / n, g1 / n];
    let lr = 1;
    let next: [number, number] = [b[0] - step[0], b[1] - step[1]];
    let fn = objective(next);
    while (fn > f && lr > 1e-6) {
      lr /= 2;
      next = [b[0] - lr * step[0], b[1] - lr * step[1]];
      fn = objective(next);
    }
    if (fn > f) break;
    const done = f - fn < 1e-9 * Math.max(1, Math.abs(f));
    b = next;
    f = fn;
    if (done) break;
  }
  const nllAfter = samples.reduce((a, s) => a + caseTerms(s, inverseTemperature({ b0: b[0], b1: b[1] }, s.completeness)).nll, 0) / n;
  return { b0: b[0], b1: b[1], nllAfter, iterations: it };
}

/** Naive-Bayes-like log-scores (a leader, a few close, a long tail tens of nats behind), the truth often but not always first. */
function cases(n: number, seed: number, diseases = 12): CalibrationSample[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const scores = Array.from({ length: diseases }, (_, j) => -(j < 3 ? 3 * rnd() : 10 + 60 * rnd()) + 5);
    const truth = rnd() < 0.6 ? scores.indexOf(Math.max(...scores)) : Math.floor(rnd() * diseases);
    return { scores, truth, completeness: rnd() };
  });
}

describe('calibration: the Newton fit on prepared cases (issue 49)', () => {
  it('finds the same β(c), NLL and iteration count as the per-step softmax fit, to the bit, with and without a tail scale', () => {
    for (const seed of [1, 2, 3]) {
      for (const tail of [null, 0.5, 8]) {
        const samples = cases(300, seed).map((s) => ({ ...s, scores: Array.from(tailScores(s.scores, tail)) }));
        const got = fitBeta(samples.map(shiftCase));
        const want = referenceFit(samples);
        assert.deepEqual({ b0: got.b0, b1: got.b1, nllAfter: got.nllAfter, iterations: got.iterations }, want, `seed ${seed}, tail ${tail}`);
        assert.notDeepEqual([got.b0, got.b1], [1, 0], 'a fit that moves from the starting point');
        assert.ok(got.nllAfter < got.nllBefore, 'the fit lowers the NLL');
      }
    }
  });

  it("mean NLL on prepared cases equals meanNll's on the raw scores at any β(c)", () => {
    const samples = cases(200, 7);
    for (const p of [{ b0: 1, b1: 0 }, { b0: 0.4, b1: 0.9 }, { b0: 3, b1: -2.5 }]) {
      assert.equal(meanShiftedNll(samples.map(shiftCase), (c) => inverseTemperature(p, c)), meanNll(samples, p));
    }
  });

  it('fitting twice on the same cases gives the same parameters (the per-call cache of shifted scores holds no state between calls)', () => {
    const samples = cases(120, 11);
    const first = fitCalibrationParams(samples);
    const again = fitCalibrationParams(samples.map((s) => ({ ...s, scores: Array.from(s.scores) })));
    assert.deepEqual(again, first);
    assert.ok(first.nllAfter <= first.nllBefore);
  });
});
