import { strict as assert } from 'node:assert';
import { EvidenceReasoner, type ScoredPosterior } from '../../src/reasoners/evidence-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';
import { DEFAULT_OPTIONS, type FeatureMatch } from '../../src/query/contracts.js';
import { calibratedPosterior, inverseTemperature } from '../../src/calibration/temperature.js';
import { tinyKg } from '../support/query-kg.js';
import type { KgSnapshot } from '../../src/query/kg-snapshot.js';

function ctx(snapshot: KgSnapshot, findings: string[], text: string | null = null): ReasonerContext {
  const matches: FeatureMatch[] = findings.map((t, i) => ({ findingIndex: i, featureId: snapshot.features.find((f) => f.text === t)!.id, featureText: t, similarity: 1, polarity: 'present' }));
  return {
    input: { text, findings: [], age: null, sex: null, options: DEFAULT_OPTIONS },
    findings: [], matches, votes: [], candidates: [], differencesKg: [], retrieved: [], followUps: [], snapshot, signal: null,
  };
}

describe('evidence reasoner with the build calibration (issue 26)', () => {
  it('rescales without reordering, per input kind, and says what the numbers are', async () => {
    const { snapshot } = await tinyKg();
    let seen: ScoredPosterior | null = null;
    const reasoner = new EvidenceReasoner({}, { onScores: (s) => { seen = s; } });
    const raw = await reasoner.reason(ctx(snapshot, ['fever', 'cough']));
    assert.deepEqual({ ...raw.probability, completeness: null }, { source: 'evidence-posterior', calibrated: false, inputKind: 'coded', completeness: null, temperature: 1, tailScale: null, mix: null, topLabel: false, unlisted: raw.probability!.unlisted, uncalibrated: raw.differential.map((d) => d.score) });
    const coded = { b0: 0.3, b1: 0, tail: 4, mix: { weight: 0.1, beta: 0.05 } };
    const c = ctx(snapshot, ['fever', 'cough']);
    c.calibration = { method: 'temperature', kinds: { coded } };
    const cal = await reasoner.reason(c);
    assert.deepEqual(cal.differential.map((d) => d.diseaseId), raw.differential.map((d) => d.diseaseId), 'same order');
    assert.ok(cal.differential[0]!.score < raw.differential[0]!.score, 'a temperature above 1 lowers the leader');
    assert.equal(cal.probability!.calibrated, true);
    assert.ok(Math.abs(cal.probability!.temperature! - 1 / 0.3) < 1e-9);
    // The shown numbers are exactly the stored parameters applied to the raw scores the hook saw.
    const s = seen as ScoredPosterior | null;
    assert.ok(s !== null);
    const expected = calibratedPosterior(s.scores, coded, s.completeness).probs;
    for (const d of cal.differential) assert.ok(Math.abs(d.score - expected[snapshot.diseaseIndex.get(d.diseaseId)!]!) < 1e-12);
    assert.ok(Math.abs(cal.differential.reduce((a, d) => a + d.score, 0) + cal.probability!.unlisted - 1) < 1e-9);
    assert.equal(inverseTemperature(coded, s.completeness), 0.3);
    assert.deepEqual(cal.probability!.uncalibrated, raw.differential.map((d) => d.score), 'the raw posterior rides along, for consultations');
    assert.deepEqual(cal.probability!.mix, coded.mix);
  });

  it('a text request uses the text parameters; a kind without parameters stays uncalibrated', async () => {
    const { snapshot } = await tinyKg();
    const c = ctx(snapshot, ['fever'], 'fever');
    c.calibration = { method: 'temperature', kinds: { coded: { b0: 0.2, b1: 0 } } };
    const out = await new EvidenceReasoner().reason(c);
    assert.equal(out.probability!.inputKind, 'text');
    assert.equal(out.probability!.calibrated, false);
    assert.equal(out.probability!.temperature, 1);
  });
});
