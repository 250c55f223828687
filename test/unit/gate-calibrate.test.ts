import { strict as assert } from 'node:assert';
import { calibrateThresholds } from '../../src/gate/calibrate-thresholds.js';
import { decideGate } from '../../src/gate/gate-decision.js';

/** Scores 0.00 .. 0.99; correct when score ≥ 0.5, plus one wrong answer at 0.8 and a right one at 0.1. */
const samples = Array.from({ length: 100 }, (_, i) => ({ score: i / 100, correct: (i >= 50 && i !== 80) || i === 10 }));

describe('gate: threshold calibration', () => {
  it('θ1 is the lowest score whose direct answers reach the target accuracy', () => {
    const c = calibrateThresholds(samples, { directAccuracy: 0.95, warnAccuracy: 0.05, minSupport: 10 });
    // From 0.48: 52 answers, 49 right = 94%; from 0.49: 51 answers, 49 right = 96%.
    assert.equal(c.theta1, 0.49);
    assert.equal(c.directShare, 0.51);
    // Below 0.50 only 1 of 50 is right (2% ≤ 5%), so θ2 would be 0.50: capped at θ1.
    assert.equal(c.theta2, 0.49);
  });

  it('θ2 sits where accuracy below it drops under the floor', () => {
    const c = calibrateThresholds(samples, { directAccuracy: 0.99, warnAccuracy: 0.3, minSupport: 10 });
    assert.equal(c.theta1, 0.81); // 19/19 right from 0.81 up; from 0.80 one wrong in 20 = 95%
    // Below 0.70: 21 right (0.10 and 0.50..0.69) of 70 = 30% ≤ 30%; below 0.71: 22/71 = 31% > 30%.
    assert.equal(c.theta2, 0.7);
    assert.equal(decideGate(0.75, { theta1: c.theta1!, theta2: c.theta2! }).decision, 'retrieve');
  });

  it('returns null for a threshold no score qualifies for', () => {
    // Scores 0.00 .. 0.39: only 0.10 is right, so no direct threshold; nothing right below 0.10.
    const c = calibrateThresholds(samples.slice(0, 40), { directAccuracy: 0.9, warnAccuracy: 0.0, minSupport: 10 });
    assert.deepEqual(c, { theta1: null, theta2: 0.1, directShare: 0 });
    assert.deepEqual(calibrateThresholds([], {}), { theta1: null, theta2: null, directShare: 0 });
  });
});
