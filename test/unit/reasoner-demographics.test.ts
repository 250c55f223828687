import assert from 'node:assert/strict';
import { ageBand, AGE_BANDS, emptyTally, tally } from '../../src/domain/demographics.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';

/** Two diseases with the same manifestations, one seen only in toddlers, one only in adults. */
const bands = (band: number, n: number) => AGE_BANDS.map((_, i) => (i === band ? n : 0));
const snapshot = buildSnapshot({
  categories: [{ id: 'cat:c', name: 'C' }],
  subcategories: [{ id: 'sub:s', name: 'S', categoryId: 'cat:c' }],
  diseases: [
    { id: 'dis:croup', name: 'Croup', subcategoryId: 'sub:s', icd10: null, recordCount: 20, aliases: [], ageBands: bands(ageBand(2), 20), sexCounts: [10, 10] },
    { id: 'dis:lary', name: 'Laryngitis', subcategoryId: 'sub:s', icd10: null, recordCount: 20, aliases: [], ageBands: bands(ageBand(40), 20), sexCounts: [10, 10] },
  ],
  features: [{ id: 'feat:cough', text: 'barking cough', kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: false }],
  manifestations: [
    { diseaseId: 'dis:croup', featureId: 'feat:cough', prevalence: 1, count: 20, source: 'ehr' },
    { diseaseId: 'dis:lary', featureId: 'feat:cough', prevalence: 1, count: 20, source: 'ehr' },
  ],
});

function ctx(age: number | null): ReasonerContext {
  return {
    input: { text: 'barking cough', findings: [], age, sex: null, options: DEFAULT_OPTIONS },
    findings: [{ text: 'barking cough', polarity: 'present', code: null, valueCode: null }],
    matches: [{ findingIndex: 0, featureId: 'feat:cough', featureText: 'barking cough', similarity: 1, polarity: 'present' }],
    votes: [], candidates: [], differencesKg: [], retrieved: [], followUps: [], snapshot, signal: null,
  };
}

describe('evidence reasoner: age and sex from the disease demographics', () => {
  it('the patient\'s age band moves the disease seen at that age up', async () => {
    const r = new EvidenceReasoner();
    assert.equal((await r.reason(ctx(2))).differential[0]!.disease, 'Croup');
    assert.equal((await r.reason(ctx(40))).differential[0]!.disease, 'Laryngitis');
  });

  it('no age, or demographics switched off: the two tie', async () => {
    const tie = (await new EvidenceReasoner().reason(ctx(null))).differential;
    assert.ok(Math.abs(tie[0]!.score - tie[1]!.score) < 1e-9);
    const off = (await new EvidenceReasoner({ demographicWeight: 0 }).reason(ctx(2))).differential;
    assert.ok(Math.abs(off[0]!.score - off[1]!.score) < 1e-9);
  });

  it('tallies records by age band and sex', () => {
    const t = emptyTally();
    tally(t, { age: 0.5, sex: 'F' });
    tally(t, { age: 80, sex: 'M' });
    tally(t, { age: null, sex: null });
    assert.deepEqual(t.sexCounts, [1, 1]);
    assert.equal(t.ageBands[0], 1);
    assert.equal(t.ageBands[AGE_BANDS.length - 1], 1);
  });
});
