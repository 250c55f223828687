import { strict as assert } from 'node:assert';
import { informationDensity } from '../../src/gate/information-density.js';
import { checkThresholds, decideGate } from '../../src/gate/gate-decision.js';
import { DEFAULT_GATE_PARAMS, type SentenceLabel } from '../../src/gate/types.js';

const labels = (s: string) => s.split('') as SentenceLabel[];
const W = DEFAULT_GATE_PARAMS;

describe('gate: information density (FIND eq. 2-3)', () => {
  // Hand-worked with alpha 1.0, beta 0.5, gamma 0.1.
  const worked: [string, number][] = [
    ['AAAA', 1], // 4 / 4
    ['CCCC', 0.1], // 0.4 / 4
    ['ABC', (1 + 0.5 + 0.1) / 3], // 0.5333
    ['AABCC', (2 + 0.5 + 0.2) / 5], // 0.54
    ['B', 0.5],
    ['BC', 0.3], // 0.6 / 2
  ];
  for (const [l, expected] of worked) {
    it(`${l} → ${expected.toFixed(4)}`, () => assert.ok(Math.abs(informationDensity(labels(l), W) - expected) < 1e-12));
  }

  it('normalises by alpha·n: other weights change the score as the formula says', () => {
    // alpha 2, beta 1, gamma 0: (2·1 + 1·2 + 0·1) / (2·4) = 0.5
    assert.equal(informationDensity(labels('ABBC'), { alpha: 2, beta: 1, gamma: 0 }), 0.5);
  });

  it('does not depend on label order', () => {
    assert.equal(informationDensity(labels('CABCB'), W), informationDensity(labels('ABBCC'), W));
  });

  it('is 0 for no sentences and rejects alpha ≤ 0', () => {
    assert.equal(informationDensity([], W), 0);
    assert.throws(() => informationDensity(labels('A'), { alpha: 0, beta: 0.5, gamma: 0.1 }), /alpha/);
  });
});

describe('gate: decision at the thresholds (θ1 0.6, θ2 0.3)', () => {
  const decide = (l: string) => decideGate(informationDensity(labels(l), W), W).decision;

  it('exactly θ1 goes direct: 1 A + 4 B = 3/5', () => assert.equal(decide('ABBBB'), 'direct'));
  it('exactly θ1 with gamma rounding: 5 A + 4 C = 5.4/9', () => {
    assert.equal(decide('AAAAACCCC'), 'direct');
  });
  it('just under θ1 retrieves: 1 A + 4 B + 1 C = 3.1/6', () => assert.equal(decide('ABBBBC'), 'retrieve'));
  it('exactly θ2 retrieves without warning: 1 B + 1 C = 0.6/2', () => {
    const v = decideGate(informationDensity(labels('BC'), W), W);
    assert.deepEqual(v, { decision: 'retrieve', warning: null });
  });
  it('exactly θ2 with gamma rounding: 2 A + 7 C = 2.7/9', () => assert.equal(decide('AACCCCCCC'), 'retrieve'));
  it('just under θ2 warns: 1 B + 2 C = 0.7/3', () => {
    const v = decideGate(informationDensity(labels('BCC'), W), W);
    assert.equal(v.decision, 'retrieve-warn');
    assert.match(v.warning ?? '', /insufficient/);
    assert.match(v.warning ?? '', /0\.23/);
  });
  it('raw scores straddling a threshold by more than the tolerance are not snapped', () => {
    assert.equal(decideGate(0.6 - 1e-6, W).decision, 'retrieve');
    assert.equal(decideGate(0.3 - 1e-6, W).decision, 'retrieve-warn');
    assert.equal(decideGate(0.6 - 1e-12, W).decision, 'direct');
  });
  it('a score that rounds just below an exact threshold still reaches it (tolerance)', () => {
    // (1 + 2·0.1) / 3 is exactly 0.4 but evaluates to 0.39999999999999997 in doubles.
    const score = informationDensity(labels('ACC'), W);
    assert.ok(score < 0.4, 'premise: the double is below 0.4');
    assert.equal(decideGate(score, { theta1: 0.4, theta2: 0.2 }).decision, 'direct');
    // 3 B + 9 C is exactly 0.2 and evaluates to 0.19999999999999998.
    const low = informationDensity(labels('BBBCCCCCCCCC'), W);
    assert.ok(low < 0.2);
    assert.equal(decideGate(low, { theta1: 0.4, theta2: 0.2 }).decision, 'retrieve');
  });
  it('ICA-RAG thresholds (0.3 / 0.1) are just configuration', () => {
    const ica = { theta1: 0.3, theta2: 0.1 };
    assert.equal(decideGate(0.3, ica).decision, 'direct');
    assert.equal(decideGate(0.2, ica).decision, 'retrieve');
    assert.equal(decideGate(0.1, ica).decision, 'retrieve');
    assert.equal(decideGate(0.09, ica).decision, 'retrieve-warn');
  });
  it('rejects thresholds out of order', () => {
    assert.equal(checkThresholds(W), null);
    assert.match(checkThresholds({ theta1: 0.2, theta2: 0.3 }) ?? '', /theta2 ≤ theta1/);
  });
});
