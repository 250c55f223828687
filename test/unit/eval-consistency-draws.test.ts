import assert from 'node:assert/strict';
import { expectedCalibrationError, type ProbabilityCase } from '../../src/eval/calibration-metrics.js';
import { calibratedDraws } from '../../src/eval/consistency-draws.js';
import { seededRandom } from '../../src/util/rng.js';

/** The calibrated draws as first written: a copy of every case per draw, right with its own probability. */
function reference(cases: readonly ProbabilityCase[], draws: number, measured: number, rnd: () => number) {
  let total = 0;
  let atLeast = 0;
  for (let r = 0; r < draws; r++) {
    const e = expectedCalibrationError(cases.map((c) => ({ ...c, correct: rnd() < c.top })));
    total += e;
    if (e >= measured - 1e-12) atLeast++;
  }
  return { meanEce: total / draws, atLeastShare: atLeast / draws };
}

describe('consistency resampling draws (Bröcker & Smith 2007)', () => {
  it('give the figures of a copy-per-draw resampling to the bit, from the same generator state', () => {
    const gen = seededRandom(5);
    for (const n of [1, 2, 7, 40, 333]) {
      // Ties, empty bins, probabilities of exactly 0 and 1.
      const cases = Array.from({ length: n }, (_, i): ProbabilityCase => ({ top: i % 9 === 0 ? 1 : i % 7 === 0 ? 0 : i % 3 === 0 ? 0.5 : gen(), correct: gen() < 0.6, truth: 0.1, brier: 0 }));
      const measured = expectedCalibrationError(cases);
      const a = calibratedDraws(cases.map((c) => c.top), { draws: 37, measured, rnd: seededRandom(n) });
      const b = reference(cases, 37, measured, seededRandom(n));
      assert.deepEqual(a, b, `n ${n}`);
    }
  });

  it('a calibrated set shows sampling noise only; a set right at 50% while saying 95% is far off it', () => {
    const honest = Array.from({ length: 200 }, (_, i): ProbabilityCase => ({ top: 0.5, correct: i % 2 === 0, truth: 0.5, brier: 0 }));
    const d = calibratedDraws(honest.map((c) => c.top), { draws: 200, measured: expectedCalibrationError(honest), rnd: seededRandom(1) });
    assert.ok(d.meanEce > 0 && d.meanEce < 0.1, `${d.meanEce}`);
    assert.equal(d.atLeastShare, 1, 'an exactly honest set (ECE 0) is matched by every draw');
    const over = honest.map((c) => ({ ...c, top: 0.95 }));
    const o = calibratedDraws(over.map((c) => c.top), { draws: 200, measured: expectedCalibrationError(over), rnd: seededRandom(1) });
    assert.equal(o.atLeastShare, 0);
  });
});
