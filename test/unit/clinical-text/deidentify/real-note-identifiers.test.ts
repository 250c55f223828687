import { strict as assert } from 'node:assert';
import { analyzeClinicalText } from '../../../../src/clinical-text/analysis/index.js';
import { loadIdentifierRules, scrubIdentifiers, type IdentifierKind, type IdentifierRules } from '../../../../src/clinical-text/deidentify/index.js';
import { prepareNote } from '../../../../src/clinical-text/prepare-note.js';
import { loadSectionRules, type SectionRules } from '../../../../src/clinical-text/sections/index.js';

/**
 * Issue 47 item 6, one category at a time: the identifiers real notes carry besides names, dates,
 * record numbers, phones, addresses and e-mails (facilities, departments with their place, towns,
 * transcription initials and dictation footers, streets without a number, ages over 89), in
 * sentences written the way US notes are. What must stay stays: eponyms, capitalised clinical
 * words at a sentence start, drug names, units, countries of travel, generic services.
 */
interface Case {
  text: string;
  /** The identifier strings that must be gone. */
  gone: string[];
  /** Text that must come out as written. */
  kept?: string[];
  kind: IdentifierKind;
}

const CASES: Record<string, Case[]> = {
  'facility names': [
    { text: 'Transferred from St. Barnabas Hospital for a higher level of care.', gone: ['Barnabas'], kept: ['Transferred from', 'for a higher level of care.'], kind: 'FACILITY' },
    { text: 'She was admitted to Mercy General Medical Center in the spring.', gone: ['Mercy', 'General Medical Center'], kind: 'FACILITY' },
    { text: 'PCP: follows with Riverside Family Practice for her diabetes.', gone: ['Riverside'], kept: ['for her diabetes.'], kind: 'FACILITY' },
    { text: 'HOLLOWAY CREEK REGIONAL HOSPITAL\nEMERGENCY DEPARTMENT RECORD', gone: ['HOLLOWAY', 'CREEK'], kept: ['EMERGENCY DEPARTMENT RECORD'], kind: 'FACILITY' },
    { text: 'Discharged to Oakhurst Nursing Home. At Oakhurst she fell twice.', gone: ['Oakhurst'], kind: 'FACILITY' },
  ],
  'departments and clinics with their place': [
    { text: 'Follow up in the Cardiology Clinic at Lakeside in 2 weeks.', gone: ['Lakeside'], kept: ['Follow up in the', 'in 2 weeks.'], kind: 'FACILITY' },
    { text: 'Seen by the Department of Medicine at Fairbrook last year.', gone: ['Fairbrook'], kind: 'FACILITY' },
  ],
  'towns and cities': [
    { text: 'A 45-year-old man from Millbrook presents with cough.', gone: ['Millbrook'], kept: ['A 45-year-old man from', 'presents with cough.'], kind: 'LOCATION' },
    { text: 'SOCIAL HISTORY: Lives in Harwood Falls with his wife. Retired machinist.', gone: ['Harwood', 'Falls'], kept: ['with his wife. Retired machinist.'], kind: 'LOCATION' },
    { text: 'She moved here from Cedar Hollow, TX two years ago.', gone: ['Cedar Hollow'], kind: 'LOCATION' },
    { text: 'Works at Brookstone Elementary as a teacher.', gone: ['Brookstone'], kind: 'LOCATION' },
  ],
  'streets without a number': [
    { text: 'Lives on Larkspur Lane with her daughter.', gone: ['Larkspur'], kept: ['with her daughter.'], kind: 'ADDRESS' },
    { text: 'Lives at 10 Elm Avenue.', gone: ['10 Elm', 'Elm Avenue'], kind: 'ADDRESS' },
  ],
  'transcription initials and dictation footers': [
    { text: 'Dictated by: Ingrid Halvorsen, MD\nIH/mm\nD: 01/02/2019 T: 01/03/2019\nJob #: 448213', gone: ['Ingrid', 'Halvorsen', 'IH/mm', '01/02/2019', '01/03/2019', '448213'], kept: ['Dictated by:', 'D:', 'T:'], kind: 'NAME' },
    { text: 'Electronically signed by Tobias Ekwueme, MD\ncc: Priscilla Vandermeer, MD', gone: ['Tobias', 'Ekwueme', 'Priscilla', 'Vandermeer'], kind: 'NAME' },
    { text: 'T.E., MD\nTE/kl D: 05/06/2024 T: 05/07/2024', gone: ['TE/kl', '05/06/2024'], kind: 'NAME' },
  ],
  'ages over 89': [
    { text: 'HPI: 92-year-old female with dyspnea on exertion.', gone: ['92'], kept: ['90+-year-old female'], kind: 'AGE' },
    { text: 'Age: 97. Sex: M.', gone: ['97'], kept: ['Age: 90+.'], kind: 'AGE' },
    { text: '94F with fever and cough.', gone: ['94F'], kept: ['90+F with fever'], kind: 'AGE' },
    { text: 'He is a 101 yo man from a nursing facility.', gone: ['101'], kept: ['90+ yo man'], kind: 'AGE' },
  ],
};

/** Clinical text no pattern may touch: eponyms, sentence starts, drugs, units, travel, generic services, temperatures. */
const CLINICAL = [
  "Positive Murphy's sign. Babinski upgoing on the left. Homans sign negative. Kernig and Brudzinski signs negative.",
  'History of Hodgkin lymphoma. Sputum with Charcot-Leyden crystals. Parkinson disease. Crohn disease. Graves disease. Cushing syndrome.',
  "Bell's palsy on the right. Kussmaul breathing. Cheyne-Stokes respirations. Trousseau sign and Chvostek sign positive.",
  'Lungs: Clear to auscultation bilaterally. Extremities: No clubbing, cyanosis or edema. Neck: No JVD. General: NAD.',
  'Meds: Lasix 40 mg daily, Coumadin 5 mg, Tylenol 650 mg q6h prn. Switched from Lisinopril to Losartan.',
  'Returned from Mexico in May. Recently traveled to Sierra Leone. Lives in Ohio. Returned from the Democratic Republic of the Congo last week.',
  'Seen in the Emergency Department. Community Hospital ED course unremarkable. Follow up in Cardiology Clinic. Transferred from Cardiology.',
  'Vitals: T 99 F, Temp 98F, HR 92, BP 91/60. Age 45. A 89-year-old woman. 88 yo M.',
  'CC: Chest pain. ROS: negative except as in HPI.',
].join('\n');

describe('clinical text: identifiers real notes carry, by category (issue 47)', () => {
  let rules: IdentifierRules;
  let sections: SectionRules;
  before(async () => {
    const loaded = await loadIdentifierRules();
    if (!loaded.ok) assert.fail(loaded.error.message);
    rules = loaded.value;
    const s = await loadSectionRules();
    if (!s.ok) assert.fail(s.error.message);
    sections = s.value;
  });

  for (const [category, cases] of Object.entries(CASES)) {
    it(`scrubs ${category}`, () => {
      for (const c of cases) {
        const { text, found } = scrubIdentifiers(c.text, rules);
        for (const g of c.gone) assert.ok(!text.includes(g), `"${g}" is still in: ${text}`);
        for (const k of c.kept ?? []) assert.ok(text.includes(k), `"${k}" is gone from: ${text}`);
        assert.ok(found[c.kind] > 0, `no ${c.kind} counted in: ${text}`);
      }
    });
  }

  it('changes nothing in clinical text: eponyms, sentence starts, drug names, units, travel, generic services, ages under 90', () => {
    const { text, found } = scrubIdentifiers(CLINICAL, rules);
    assert.equal(text, CLINICAL);
    assert.deepEqual(Object.values(found).filter((n) => n > 0), []);
  });

  it('an age over 89 kept as 90+ still reads as old age, the age under it as itself', () => {
    for (const [note, age] of [['92-year-old female with dyspnea.', 90], ['Age: 96. Cough for a week.', 90], ['91 yo M with fever', 90], ['89-year-old man with cough', 89]] as const) {
      const scrubbed = scrubIdentifiers(note, rules).text;
      assert.equal(analyzeClinicalText(scrubbed).demographics.age, age, scrubbed);
    }
  });

  it('a prepared note carries no placeholder of the new kinds (they would read as words)', () => {
    const prepared = prepareNote('Seen at St. Barnabas Hospital. Lives in Millbrook. 93-year-old with cough.', { identifiers: rules, sections });
    assert.ok(!/\[(?:FACILITY|LOCATION)\]|Barnabas|Millbrook|93/.test(prepared.text), prepared.text);
    assert.ok(prepared.text.includes('90+-year-old with cough'), prepared.text);
    assert.deepEqual(prepared.scrubbed, { FACILITY: 1, LOCATION: 1, AGE: 1 });
  });
});
