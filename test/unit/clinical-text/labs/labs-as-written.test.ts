import assert from 'node:assert/strict';
import { measurementFindings, readMeasurements } from '../../../../src/clinical-text/analysis/measurements.js';
import { analyzeClinicalText } from '../../../../src/clinical-text/analysis/analyze.js';

/**
 * Labs and vital signs as clinicians write them in notes, read through value and unit, low /
 * normal / high (the note's own range or flag, else the adult reference table) to the HPO
 * phenotype they show. Sentences written for this test in the style of real notes.
 */
const findings = (text: string, sex: 'M' | 'F' | null = null) => measurementFindings(text, 50, sex).map((f) => f.text);
const abnormal = (text: string, sex: 'M' | 'F' | null = null) => readMeasurements(text, 50, sex).filter((m) => m.finding !== null).map((m) => m.finding);

describe('labs as written: one lab or vital sign, one phenotype', () => {
  // [as written, the phenotype it shows]: 34 labs and vital signs.
  const CASES: [string, string][] = [
    ['Hgb 9.0', 'Anemia'],
    ['Hemoglobin: 9.0 g/dL', 'Anemia'],
    ['WBC 15.2K', 'Leukocytosis'],
    ['WBC 2.1', 'Leukopenia'],
    ['Na 128', 'Hyponatremia'],
    ['K 5.9', 'Hyperkalemia'],
    ['K 2.8 mEq/L', 'Hypokalemia'],
    ['calcium 13.2 mg/dL', 'Hypercalcemia'],
    ['Ca 2.95 mmol/L', 'Hypercalcemia'],
    ['troponin I 2.3', 'Increased circulating troponin I concentration'],
    ['hs-TnT 88 ng/L', 'Increased circulating troponin T concentration'],
    ['BNP 1,200', 'Increased circulating brain natriuretic peptide concentration'],
    ['NT-proBNP 4,500 pg/mL', 'Increased circulating NT-proBNP concentration'],
    ['SpO2 88% on RA', 'Hypoxemia'],
    ['O2 sat 89% on room air', 'Hypoxemia'],
    ['BP 88/50', 'Hypotension'],
    ['HR 124', 'Elevated heart rate'],
    ['RR 28', 'Polypnea'],
    ['glucose 412', 'High blood glucose'],
    ['creatinine 3.4', 'Elevated circulating creatinine concentration'],
    ['BUN 58', 'Increased blood urea nitrogen'],
    ['INR 3.2', 'Prolonged prothrombin time'],
    ['platelets 45', 'Thrombocytopenia'],
    ['MCV 68', 'Microcytosis'],
    ['lipase 900', 'Increased circulating pancreatic triacylglycerol lipase level'],
    ['ALT 450', 'Elevated circulating hepatic transaminase concentration'],
    ['bilirubin 4.1', 'Hyperbilirubinemia'],
    ['TSH 0.01', 'suppressed TSH'],
    ['A1c 9.8%', 'Elevated hemoglobin A1c'],
    ['lactate 4.2', 'Increased circulating lactate concentration'],
    ['D-dimer 2.1', 'Elevated circulating D-dimer concentration'],
    ['CK 12,000', 'Elevated circulating creatine kinase concentration'],
    ['ESR 95', 'Elevated erythrocyte sedimentation rate'],
    ['CRP 180', 'Elevated circulating C-reactive protein concentration'],
    ['Mg 1.1', 'Hypomagnesemia'],
    ['albumin 2.1', 'Hypoalbuminemia'],
    ['pCO2 68', 'Hypercapnia'],
    ['respirations 28', 'Polypnea'],
    ['Respirations: 30', 'Polypnea'],
    ['O2 saturation 86% on room air', 'Hypoxemia'],
    ['saturating 88% on 2 L nasal cannula', 'Hypoxemia'],
    ['Hct 28.1', 'Reduced hematocrit'],
    ['hematocrit 56%', 'Increased hematocrit'],
    ['white blood cell count 15.2', 'Leukocytosis'],
    ['ABG 7.21/68/55', 'Acidosis'],
    ['arterial blood gas 7.52/28/90', 'Alkalosis'],
  ];
  for (const [text, phenotype] of CASES) {
    it(`"${text}" reads as ${phenotype}`, () => assert.deepEqual(findings(text), [phenotype]));
  }

  it('at least 30 labs and vital signs are covered', () => assert.ok(CASES.length >= 30));

  it('"Hgb 7.9 g/dL, MCV 68" reads as decreased hemoglobin and microcytosis', () => {
    assert.deepEqual(findings('Hgb 7.9 g/dL, MCV 68'), ['Anemia', 'Microcytosis']);
  });

  it('a chemistry panel written in a line reads each analyte, no name taken for another', () => {
    assert.deepEqual(findings('Na 128, K 5.9, Cl 98, HCO3 14, BUN 58, Cr 3.4, glucose 412'), [
      'Hyponatremia', 'Hyperkalemia', 'chloride 98 mmol/L', 'Metabolic acidosis', 'Increased blood urea nitrogen', 'Elevated circulating creatinine concentration', 'High blood glucose',
    ]);
  });
});

describe('labs as written: the name and value are the measurement, never words of a finding', () => {
  const words = (text: string) => analyzeClinicalText(text).findings.filter((f) => !f.measured).map((f) => f.text);
  it('a lab or vital sign the rules read leaves no words behind for the vocabularies or the embedding fallback', () => {
    // "albumin 2.9" had read as albuminuria, "white blood cell count 15.2" as low white cells, "respirations 16" as shortness of breath.
    assert.deepEqual(words('Albumin 2.9. White blood cell count 15.2. Respirations 16. Hematocrit 45. O2 saturation 97% on room air.'), []);
    assert.deepEqual(words('Saturating 95% on 2 L nasal cannula.'), []);
  });
  it("a pulse's rhythm between its name and value stays a finding", () => {
    assert.deepEqual(words('Pulse irregularly irregular at 130.'), ['Pulse irregularly irregular at 130']);
  });
  it("a urine pH is no blood gas, and a bare 'pH' is not read", () => {
    assert.deepEqual(findings('Urinalysis: pH 5.0, specific gravity 1.020'), []);
  });
});

describe('labs as written: normal values and ambiguous abbreviations', () => {
  it('normal values read as no abnormal finding, only as the measured value', () => {
    assert.deepEqual(abnormal('Na 139, K 4.2, Cl 102, HCO3 25, BUN 14, Cr 0.9, glucose 96, Hgb 14.1, WBC 7.2, plt 250, INR 1.0, MCV 88'), []);
    assert.deepEqual(abnormal('HR 78, RR 16, BP 124/78, SpO2 98% on RA'), []);
    assert.ok(findings('Na 139').includes('sodium 139 mmol/L'));
  });

  it('"K" is potassium only with a plausible value; "Cr" and "Cl" are not confused', () => {
    assert.deepEqual(findings('K 42'), [], 'no potassium of 42');
    assert.deepEqual(findings('walked 5 K this morning'), []);
    assert.deepEqual(readMeasurements('Cl 92, Cr 2.2', 50, null).map((m) => m.analyte), ['chloride', 'creatinine']);
  });

  it('"Ca" as cancer is no calcium, and a tumour marker is not read as one', () => {
    assert.deepEqual(findings('h/o breast Ca 2009, s/p lumpectomy'), []);
    assert.deepEqual(findings('CA 19-9 elevated'), []);
  });

  it('the more specific name wins: "hs-troponin 45" is high-sensitivity (ng/L), not 45 ng/mL of troponin I', () => {
    assert.deepEqual(readMeasurements('hs-troponin 45', 50, null).map((m) => [m.analyte, m.value]), [['high-sensitivity troponin', 45]]);
    assert.deepEqual(readMeasurements('pro-BNP 2000', 50, null).map((m) => m.analyte), ['NT-proBNP']);
    assert.deepEqual(readMeasurements('HbA1c 7.2%', 50, null).map((m) => m.analyte), ['hemoglobin A1c']);
  });

  it('the note\'s own range comes before the table; units convert', () => {
    assert.deepEqual(findings('Na 133 (ref 130-145)'), ['sodium 133 mmol/L'], 'normal by its own range, low by the table');
    assert.deepEqual(findings('Na 133'), ['Hyponatremia']);
    assert.deepEqual(findings('creatinine 310 umol/L'), ['Elevated circulating creatinine concentration']);
    assert.deepEqual(findings('bilirubin 41'), ['Hyperbilirubinemia'], 'an integer bilirubin is in umol/L');
    assert.deepEqual(findings('bilirubin 1.0'), ['total bilirubin 17.1 umol/L'], 'a decimal one in mg/dL');
  });

  it('the sex narrows an interval when known: Hgb 12.5 is anaemia in a man, not in a woman', () => {
    assert.deepEqual(abnormal('Hgb 12.5', 'M'), ['Anemia']);
    assert.deepEqual(abnormal('Hgb 12.5', 'F'), []);
    assert.deepEqual(abnormal('Hgb 12.5', null), [], 'an unknown sex takes the interval of both');
    const a = analyzeClinicalText('68 yo M with fatigue. Hgb 12.5.');
    assert.ok(a.findings.some((f) => f.text === 'Anemia'), 'the note\'s own sex is used');
  });

  it('a high value the table names no phenotype for is still the measured value (a KG\'s bins read it)', () => {
    assert.deepEqual(findings('BP 190/110'), ['systolic blood pressure 190 mmHg']);
    assert.deepEqual(findings('SpO2 99% (H)'), [], 'flagged so by the laboratory: nothing to say');
  });

  it('temperatures stay the fever finding of the words: "T 38.9" and "temp 101.4 F"', () => {
    for (const text of ['Vitals: T 38.9, HR 104.', 'Temp 101.4 F.']) {
      const fever = analyzeClinicalText(text).findings.find((f) => /fever/i.test(f.text));
      assert.ok(fever && fever.assertion === 'present', text);
    }
  });
});
