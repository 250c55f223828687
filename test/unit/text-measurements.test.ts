import assert from 'node:assert/strict';
import { analyzeClinicalText } from '../../src/clinical-text/analysis/analyze.js';
import { codedMeasurementFinding, MEASUREMENT_RULES, measurementFindings, readMeasurements } from '../../src/clinical-text/analysis/measurements.js';
import { labReference } from '../../src/clinical-text/labs/reference-ranges.js';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import type { InputFinding } from '../../src/clinical-text/findings.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * Measured vitals and labs read as the abnormal finding they show (measurement-rules.json): units
 * converted, bare numbers placed by plausibility, values inside the limits or of another
 * measurement ignored, children's vital signs left alone.
 */
const read = (text: string, age: number | null = 40) => readMeasurements(text, age).map((m) => [m.analyte, Math.round(m.value * 100) / 100, m.finding]);

describe('clinical-text measurements: numbers read as findings', () => {
  it('reads a clinician\'s vital signs, the blood pressure\'s systolic value first', () => {
    assert.deepEqual(read('HR 118 irregularly irregular, BP 82/50, RR 28, SpO2 86% on RA'), [
      ['heart rate', 118, 'Elevated heart rate'], ['systolic blood pressure', 82, 'Hypotension'], ['respiratory rate', 28, 'Polypnea'], ['oxygen saturation', 86, 'Hypoxemia'],
    ]);
  });

  it('converts written units to the rule\'s base unit (glucose mg/dL, WBC per mm3, bilirubin mg/dL)', () => {
    assert.deepEqual(read('glucose 450 mg/dL'), [['glucose', 24.98, 'High blood glucose']]);
    assert.deepEqual(read('WBC 15000/mm3'), [['white cell count', 15, 'Leukocytosis']]);
    assert.deepEqual(read('WBC 22,000, Plt 90,000'), [['white cell count', 22, 'Leukocytosis'], ['platelets', 90, 'Thrombocytopenia']]);
    assert.deepEqual(read('bili 3.2 mg/dL'), [['total bilirubin', 54.72, 'Hyperbilirubinemia']]);
  });

  it('places a bare number by plausibility: glucose 2.1 is mmol/L, glucose 180 is mg/dL', () => {
    assert.deepEqual(read('glucose 2.1'), [['glucose', 2.1, 'Hypoglycemia']]);
    assert.deepEqual(read('glucose 180'), [['glucose', 9.99, null]]);
    assert.deepEqual(read('glucose 300'), [['glucose', 16.65, 'High blood glucose']]);
  });

  it('a value inside the limits is read with no finding; an implausible one or one in a foreign unit not at all', () => {
    assert.deepEqual(read('HR 88, Na 139, K 4.1'), [['heart rate', 88, null], ['sodium', 139, null], ['potassium', 4.1, null]]);
    assert.deepEqual(read('HR 9000'), []);
    assert.deepEqual(read('K 3 cm lesion'), []);
  });

  it('abbreviations match as written: "K 6.1" is potassium, "k" and "hr" in words are not', () => {
    assert.deepEqual(read('K 6.1'), [['potassium', 6.1, 'Hyperkalemia']]);
    assert.deepEqual(read('walked 2 k yesterday, for 1 hr 20 min'), []);
    assert.deepEqual(read('G2P1, para 2'), []);
  });

  it('a child\'s heart and breathing rates are not judged by adult limits; an unknown age is', () => {
    assert.deepEqual(read('HR 140, RR 40', 2), []);
    assert.deepEqual(read('HR 140', null), [['heart rate', 140, 'Elevated heart rate']]);
    assert.deepEqual(read('SpO2 88%', 2), [['oxygen saturation', 88, 'Hypoxemia']]);
  });

  it('one finding per abnormality, however many readings show it', () => {
    assert.deepEqual(measurementFindings('HR 118 on arrival, HR 124 at 2h, Na 128', 50).map((f) => f.text), ['Elevated heart rate', 'Hyponatremia']);
  });

  it('a rate written with an approximation or after the pulse\'s rhythm is read, and the rhythm stays a finding', () => {
    assert.deepEqual(read('pulse ~120, HR @132, pulse about 110'), [
      ['heart rate', 120, 'Elevated heart rate'], ['heart rate', 132, 'Elevated heart rate'], ['heart rate', 110, 'Elevated heart rate'],
    ]);
    assert.deepEqual(read('Pulse irregularly irregular @132'), [['heart rate', 132, 'Elevated heart rate']]);
    // A fingerstick glucose by its triage abbreviation.
    assert.deepEqual(read('FSBG 41 in triage'), [['glucose', 2.28, 'Hypoglycemia']]);
    const texts = analyzeClinicalText('Pulse irregularly irregular @132.').findings.map((f) => f.text);
    assert.ok(texts.includes('Elevated heart rate') && texts.some((t) => /irregularly irregular/.test(t)), texts.join(' | '));
  });

  it('the analysis adds them as the patient\'s present findings, in text order, beside what the words say', () => {
    const a = analyzeClinicalText('54M, palpitations. Exam: HR 132, BP 88/60. Labs: K 2.9. Denies chest pain.');
    const texts = a.findings.map((f) => `${f.text}:${f.assertion}`);
    for (const t of ['Elevated heart rate:present', 'Hypotension:present', 'Hypokalemia:present', 'palpitations:present', 'chest pain:absent']) assert.ok(texts.includes(t), texts.join(' | '));
    const order = ['palpitations', 'Elevated heart rate', 'Hypotension', 'Hypokalemia', 'chest pain'].map((t) => texts.findIndex((x) => x.startsWith(`${t}:`)));
    assert.deepEqual(order, [...order].sort((x, y) => x - y));
    for (const f of a.findings.filter((x) => /^[A-Z]/.test(x.text))) assert.equal(f.experiencer, 'patient');
  });
});

describe('clinical-text measurement-rules.json', () => {
  it('every rule has a reference interval in its base unit (labs/reference-ranges.json), inside its plausible values', () => {
    for (const r of MEASUREMENT_RULES) {
      const lab = labReference(r.loinc);
      assert.ok(lab, r.analyte);
      assert.equal(lab.unit, r.base, r.analyte);
      const [lo, hi] = r.plausible;
      assert.ok(lo < hi, r.analyte);
      assert.ok(lab.range[1] > lo && lab.range[1] <= hi, `${r.analyte}: ${lab.range.join('-')} outside ${lo}-${hi}`);
      assert.ok(lab.low || lab.high, `${r.analyte}: names no phenotype`);
    }
  });
});

describe('concept layer: a measured finding is read by its exact forms only', () => {
  const snapshot = buildSnapshot({
    categories: [], subcategories: [], diseases: [], manifestations: [],
    features: [{ id: 'feat:smell', text: 'hyposmia', kind: 'ehr', code: 'X1', valueCode: null, question: null, valueText: null, antecedent: null }],
  });
  const finding = (measured: boolean): InputFinding => ({
    text: 'Hypoxemia', polarity: 'present', code: null, valueCode: null, assertion: 'present', experiencer: 'patient',
    ...(measured ? { measured: { analyte: 'oxygen saturation', loinc: '59408-5', value: 86, unit: '%' } } : {}),
  });

  it('"Hypoxemia" typed by a writer may be a misspelt "hyposmia"; read from "SpO2 86%" it is not', () => {
    const typed = matchConcepts({ snapshot, lexicon: null, phraseEmbedder: null }, { findings: [finding(false)], text: null });
    assert.deepEqual([...typed.values()].flat().map((m) => m.featureText), ['hyposmia'], 'the typo-tolerant reading this guards against');
    const measured = matchConcepts({ snapshot, lexicon: null, phraseEmbedder: null }, { findings: [finding(true)], text: null });
    assert.deepEqual([...measured.values()].flat(), []);
  });
  it('a coded measurement (LOINC code, value, UCUM unit) gives the finding the same value written in text gives', () => {
    const read = (loinc: string, v: number, unit: string | null) => {
      const r = codedMeasurementFinding(loinc, v, unit);
      return r.ok ? r.value : r.error;
    };
    assert.deepEqual(read('2708-6', 86, '%'), { text: 'Hypoxemia', measured: { analyte: 'oxygen saturation', loinc: '59408-5', value: 86, unit: '%' } });
    assert.deepEqual(read('8867-4', 72, '/min'), { text: 'heart rate 72 /min', measured: { analyte: 'heart rate', loinc: '8867-4', value: 72, unit: '/min', withinLimits: true } });
    assert.deepEqual(read('2339-0', 274, 'mg/dL'), { text: 'High blood glucose', measured: { analyte: 'glucose', loinc: '2345-7', value: 15.207, unit: 'mmol/L' } });
    assert.equal((read('6690-2', 18, '10*3/uL') as { text: string }).text, 'Leukocytosis', 'UCUM spelling of 10^9/L');
    assert.deepEqual(read('8867-4', 72, 'furlongs'), { part: 'unit', reason: '"furlongs" is not a unit of heart rate (/min, bpm, beats/min, {beats}/min)' });
    assert.equal((read('8867-4', 900, '/min') as { part: string }).part, 'value', 'implausible');
    assert.equal((read('1234-5', 1, null) as { part: string }).part, 'code', 'no rule knows the code');
  });

  it('the laboratory\'s own judgement first: a flag or a written reference range over the rule\'s wide limits', () => {
    const read = (text: string) => measurementFindings(text, 40).map((f) => f.text);
    assert.deepEqual(read('Hb 9.5 L'), ['Anemia'], '"L" after a value is its flag, not litres');
    assert.deepEqual(read('K 5.4 mmol/L (ref 3.5-5.1)'), ['Hyperkalemia'], 'above the range it was printed with, inside the rule\'s limits');
    assert.deepEqual(read('TSH 7.8 mIU/L (trimester-specific ref 0.1-4.0)'), ['High TSH']);
    assert.deepEqual(read('TSH 7.8 (H)'), ['High TSH']);
    assert.deepEqual(read('Na 128 low, CRP 145 ↑'), ['Hyponatremia', 'Elevated circulating C-reactive protein concentration']);
    assert.deepEqual(read('free T4 10.2 pmol/L (low-normal)'), ['free thyroxine 10.2 pmol/L'], '"low-normal" is no flag');
    assert.deepEqual(read('WBC 13.1 (ref 4.0-14.0)'), ['white cell count 13.1 10^9/L'], 'inside its printed range: no leukocytosis');
    assert.deepEqual(read('SpO2 99% (H)'), [], 'flagged in a direction the rule names nothing for: nothing said');
    assert.deepEqual(read('BP 82/50 R arm'), ['Hypotension'], 'no flag after a blood pressure');
  });

  it('a printed bound is the value; a range of numbers is none', () => {
    const read = (text: string) => measurementFindings(text, 40).map((f) => f.text);
    assert.deepEqual(read('TSH <0.01 mIU/L, free T4 45'), ['suppressed TSH', 'Increased circulating free T4 concentration']);
    assert.deepEqual(read('CRP >200'), ['Elevated circulating C-reactive protein concentration']);
    assert.deepEqual(read('recheck TSH 6-8 wk'), [], 'weeks, not a TSH of 6');
    assert.deepEqual(read('FT4 3.2'), ['Increased circulating free T4 concentration'], 'a bare free T4 under 4 is in ng/dL');
  });
});
