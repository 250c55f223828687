import { strict as assert } from 'node:assert';
import { LexiconError } from '../../src/errors.js';
import { compileMedications, impliedConditions, shippedMedications } from '../../src/clinical-text/medications/implied-conditions.js';
import { detectSections, shippedSectionRules } from '../../src/clinical-text/sections/index.js';

/**
 * Conditions a medication list implies (issue 47): treatment history read as a clinician reads
 * it, from a reviewed drug -> condition table, in medication sections only. Notes written for
 * this test in the style of US notes.
 */
const NOTE = [
  'CHIEF COMPLAINT: Shortness of breath.',
  'HISTORY OF PRESENT ILLNESS: A 67-year-old man with 3 days of worsening dyspnea and cough.',
  'PAST MEDICAL HISTORY: Hypertension.',
  'MEDICATIONS: Metformin 500 mg b.i.d., Keppra 750 mg b.i.d., Spiriva one puff daily, Fluticasone-salmeterol 250/50, insulin glargine 20 units at bedtime, Lantus.',
  'ALLERGIES: Coumadin causes a rash. Penicillin.',
  'PHYSICAL EXAMINATION: Lungs with scattered expiratory wheezes. No JVD.',
].join('\n');

const implied = (text: string) => impliedConditions(text, detectSections(text, shippedSectionRules())).map((x) => x.finding);

describe('clinical-text medications: conditions a medication list implies', () => {
  it('reads each listed drug of a medication section as its condition, once per condition, as treatment history', () => {
    const got = implied(NOTE);
    assert.deepEqual(
      got.map((f) => [f.text, f.cue]),
      [
        ['diabetes mellitus', 'on Metformin'],
        ['seizure disorder', 'on Keppra'],
        ['chronic obstructive pulmonary disease', 'on Spiriva'],
        ['obstructive lung disease', 'on Fluticasone-salmeterol'],
      ],
    );
    for (const f of got) {
      assert.equal(f.polarity, 'present');
      assert.equal(f.temporality, 'historical');
      assert.equal(f.section, 'meds');
    }
  });

  it('never reads an allergy list, nor a drug named outside a medication section', () => {
    const got = implied(NOTE);
    assert.ok(!got.some((f) => f.text === 'atrial fibrillation'), 'Coumadin is an allergy here');
    const prose = 'CC: fall.\nHPI: 80F on warfarin fell at home, no LOC.\nEXAM: bruise over the left hip.';
    assert.deepEqual(implied(prose), []);
  });

  it('matches whole words only, a hyphen as a space, case-insensitively', () => {
    const meds = shippedMedications();
    const text = 'CC: x.\nHPI: y.\nMEDICATIONS: SYNTHROID 50 mcg; fluticasone salmeterol; Glucotrolx 5 mg; nonmetformin.';
    const got = impliedConditions(text, detectSections(text, shippedSectionRules()), meds).map((x) => x.finding.text);
    assert.deepEqual(got, ['hypothyroidism', 'obstructive lung disease']);
  });

  it('places each condition where its drug is written, inside the medication section', () => {
    const sections = detectSections(NOTE, shippedSectionRules());
    for (const { at, finding } of impliedConditions(NOTE, sections)) {
      const drug = finding.cue!.slice(3);
      assert.equal(NOTE.slice(at, at + drug.length), drug);
    }
  });

  it('refuses a table that gives one drug two conditions, naming the file', () => {
    const r = compileMedications({ version: 1, provenance: 'test', conditions: [{ condition: 'a', drugs: ['xdrug'] }, { condition: 'b', drugs: ['XDrug'] }] }, 'meds.json');
    assert.ok(!r.ok);
    assert.ok(r.error instanceof LexiconError);
    assert.match(r.error.message, /meds\.json: xdrug names both a and b/i);
    const bad = compileMedications({ version: 1, provenance: 'test', conditions: [] }, 'meds.json');
    assert.ok(!bad.ok && bad.error.field === 'conditions');
  });

  it('the shipped table: every drug names one condition, none an allergy class word alone', () => {
    const meds = shippedMedications();
    assert.ok(meds.conditionOf.size >= 200);
    for (const word of ['penicillin', 'sulfa', 'aspirin', 'metoprolol', 'prednisone']) assert.equal(meds.conditionOf.get(word), undefined, word);
  });
});
