import { strict as assert } from 'node:assert';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import { decompose } from '../../src/clinical-text/decompose.js';
import type { FeatureNode } from '../../src/domain/kg.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { binByTertiles } from '../../src/sources/binning/bins.js';

/**
 * A value written in text read as the binned LOINC measurement of a coded source (OMOP / FHIR):
 * thirds by the cut points the records were binned with, reference-range bins by direction.
 */
const node = (id: string, code: string, valueCode: string, valueText: string, extra: Partial<FeatureNode> = {}): FeatureNode => ({
  id, text: `${code}: ${valueText}`, kind: 'ehr', code, valueCode, question: code, valueText, antecedent: false, answerType: 'one-of', ...extra,
});
const thirds = (id: string, code: string, c1: number, c2: number, unit: string | null): FeatureNode[] =>
  (['T1', 'T2', 'T3'] as const).map((t, i) => node(`${id}-${t}`, code, t, binByTertiles([c1 - 1, (c1 + c2) / 2, c2 + 1][i]!, { c1, c2 }, unit).label));

const features: FeatureNode[] = [
  ...thirds('hr', 'LOINC:8867-4', 80, 104, '/min'),
  ...thirds('glu', 'LOINC:2339-0', 90, 140, 'mg/dL'),
  ...thirds('rr', 'LOINC:9279-1', 16, 20, 'breaths per minute'),
  ...(['L', 'N', 'H'] as const).map((b) => node(`spo2-${b}`, 'LOINC:2708-6', b, { L: 'low', N: 'normal', H: 'high' }[b])),
  ...(['N', 'H'] as const).map((b) => node(`crp-${b}`, 'LOINC:1988-5', b, { N: 'normal', H: 'high' }[b])),
  { id: 'hpo-hypoxemia', text: 'Hypoxemia', kind: 'ehr', code: 'HP:0012418', valueCode: null, question: null, valueText: null, antecedent: null, vocabulary: 'HPO', forms: ['Hypoxemia'] },
];
const snapshot = buildSnapshot({ ...snapshotParts(), features });

function read(text: string): { feature: string; via: string }[] {
  const d = decompose({ text, findings: [] });
  const out = matchConcepts({ snapshot, lexicon: null }, { findings: d.findings, text });
  return [...out.values()].flat().map((m) => ({ feature: m.featureId, via: m.via ?? '' }));
}

describe('measured values onto coded LOINC bins (src/clinical-text/concepts/match-measured.ts)', () => {
  it('an abnormal vital falls in the third its value does, by the cut points of the records', () => {
    assert.deepEqual(read('HR 118').map((m) => m.feature), ['hr-T3']);
    assert.match(read('HR 118')[0]!.via, /LOINC 8867-4 "highest third \(> 104 \/min\)"/);
    // 102 is a raised heart rate for the text layer (> 100) but within the records' middle third.
    assert.deepEqual(read('pulse 102 bpm').map((m) => m.feature), ['hr-T2']);
  });

  it('converts into the unit the records used, under any of the analyte\'s LOINC codes; a unit the rule cannot convert says nothing', () => {
    // 15.2 mmol/L of glucose is 274 mg/dL: the highest third of blood glucose (2339-0), not the rule's serum code 2345-7.
    assert.deepEqual(read('glucose 15.2 mmol/L').map((m) => m.feature), ['glu-T3']);
    assert.deepEqual(read('BG 2.1').map((m) => m.feature), ['glu-T1']);
    assert.deepEqual(read('RR 30').map((m) => m.feature), [], '"breaths per minute" is no unit of the rule: no guess');
  });

  it('reference-range bins take the direction beyond the rule\'s limits, and the coded bin comes before the phenotype', () => {
    const spo2 = read('SpO2 85% on room air');
    assert.deepEqual(spo2.map((m) => m.feature), ['spo2-L'], 'not also HPO Hypoxemia: one measured fact, one feature');
    assert.deepEqual(read('CRP 160 mg/L').map((m) => m.feature), ['crp-H']);
  });

  it('a value inside the limits falls in its third too, and nothing else reads it', () => {
    assert.deepEqual(read('HR 72, SpO2 98% on room air').map((m) => m.feature), ['hr-T1'], 'SpO2 98: inside the limits, and reference-range bins are not claimed normal');
    const words: FeatureNode = { id: 'hpo-rate', text: 'Abnormal heart rate', kind: 'ehr', code: 'HP:0001', valueCode: null, question: null, valueText: null, antecedent: null, vocabulary: 'HPO', forms: ['heart rate'] };
    const noBins = buildSnapshot({ ...snapshotParts(), features: [words] });
    const d = decompose({ text: 'HR 72', findings: [] });
    assert.equal(d.findings[0]?.text, 'heart rate 72 /min');
    assert.equal(d.findings[0]?.measured?.withinLimits, true);
    assert.equal(matchConcepts({ snapshot: noBins, lexicon: null }, { findings: d.findings, text: 'HR 72' }).size, 0, 'its name is no phrase a vocabulary reads');
  });

  it('a KG without bins of the analyte reads the measurement by its phenotype name, as before', () => {
    const bare = buildSnapshot({ ...snapshotParts(), features: features.filter((f) => !f.code!.startsWith('LOINC:2708')) });
    const d = decompose({ text: 'SpO2 85% on room air', findings: [] });
    const out = [...matchConcepts({ snapshot: bare, lexicon: null }, { findings: d.findings, text: 'SpO2 85% on room air' }).values()].flat();
    assert.deepEqual(out.map((m) => m.featureId), ['hpo-hypoxemia']);
  });
});

/** One category, subcategory and disease: the concept layer reads features, not diseases. */
function snapshotParts() {
  return {
    categories: [{ id: 'cat:c', name: 'C' }],
    subcategories: [{ id: 'sub:s', name: 'S', categoryId: 'cat:c' }],
    diseases: [{ id: 'dis:d', name: 'D', subcategoryId: 'sub:s', icd10: null, recordCount: 1, aliases: ['D'] }],
    manifestations: [] as { diseaseId: string; featureId: string; prevalence: number; count: number; source: 'ehr' }[],
  };
}
