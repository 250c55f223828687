import assert from 'node:assert/strict';
import { decompose } from '../../../../src/clinical-text/decompose.js';
import { detectSections, loadSectionRules, type SectionRules } from '../../../../src/clinical-text/sections/index.js';
import type { InputFinding } from '../../../../src/clinical-text/findings.js';

/**
 * Notes as US clinicians structure them (issue 47): the headings, what each section means, the
 * templated normals of a review of systems and an exam. Every note here is written for the test
 * in the style of an H&P or a consult; none is taken from a real note.
 */
const HP = [
  'CHIEF COMPLAINT:  Cough and fever.',
  '',
  'HISTORY OF PRESENT ILLNESS:  The patient is a 58-year-old woman who presents with 4 days of productive cough, fever to 102 and right-sided pleuritic chest pain.  She denies hemoptysis.',
  '',
  'PAST MEDICAL HISTORY:',
  '1.  Hypertension.',
  '2.  Hypothyroidism.',
  '',
  'PAST SURGICAL HISTORY:  Appendectomy.',
  '',
  'MEDICATIONS:  Lisinopril 10 mg daily, levothyroxine 75 mcg daily.',
  '',
  'ALLERGIES:  Allergic to penicillin, which gives her hives.',
  '',
  'SOCIAL HISTORY:  Former smoker.  Works as a teacher.',
  '',
  'FAMILY HISTORY:  Diabetes.  Breast cancer.',
  '',
  'REVIEW OF SYSTEMS:  Negative except as in HPI.',
  '',
  'PHYSICAL EXAMINATION:',
  'GENERAL:  Ill-appearing woman.',
  'HEENT:  NCAT.  PERRLA.  EOMI.  MMM.',
  'NECK:  Supple.  No JVD.',
  'LUNGS:  Crackles at the right base with dullness to percussion.',
  'HEART:  Tachycardic, regular rhythm, no murmurs, rubs or gallops.',
  'ABDOMEN:  Soft, nontender, nondistended.  Positive bowel sounds.',
  'EXTREMITIES:  No clubbing, cyanosis or edema.',
  'NEUROLOGIC:  Alert and oriented x3.  Cranial nerves II-XII grossly intact.',
  '',
  'LABORATORY DATA:  Chest x-ray shows right lower lobe consolidation.',
  '',
  'ASSESSMENT AND PLAN:',
  '1.  Community-acquired pneumonia.  Start ceftriaxone.',
  '',
  'HOSPITAL COURSE:  Defervesced on antibiotics.',
  '',
  'DISCHARGE DIAGNOSES:  Right lower lobe pneumonia.',
].join('\n');

const read = (text: string) => decompose({ text, findings: [] });
const sign = (f: InputFinding) => `${f.polarity === 'absent' ? '-' : '+'}${f.text}`;
const find = (fs: InputFinding[], re: RegExp) => fs.filter((f) => re.test(f.text));

let rules: SectionRules;
before(async () => {
  const r = await loadSectionRules();
  if (!r.ok) throw r.error;
  rules = r.value;
});

describe('clinical-text sections: a note as clinicians structure it (issue 47)', () => {
  it('reads upper-case headings, headings alone on their line, and body systems inside the exam and the review of systems', () => {
    const kinds = detectSections(HP, rules).map((s) => s.kind);
    assert.deepEqual([...new Set(kinds)], ['chief_complaint', 'hpi', 'pmh', 'psh', 'meds', 'allergies', 'social', 'family', 'ros', 'exam', 'labs', 'assessment', 'hospital_course', 'diagnosis']);
    const ros = detectSections('REVIEW OF SYSTEMS\nCONSTITUTIONAL:  Denies fevers.  HEENT:  No sore throat.\nPHYSICAL EXAM\nHEENT:  Oropharynx erythematous.', rules);
    assert.deepEqual(ros.map((s) => [s.kind, s.role]), [['ros', 'ros'], ['ros', 'ros'], ['ros', 'ros'], ['exam', 'exam'], ['exam', 'exam']]);
    // A body system outside any exam opens one; with a number after it, it is a measurement, no heading.
    assert.deepEqual(detectSections('Lungs: crackles.', rules).map((s) => s.kind), ['body_system']);
    assert.deepEqual(detectSections('Chest: 2 cm laceration.', rules).map((s) => s.kind), [null]);
  });

  it('a whole note as the query: the clinician\'s conclusion is left out, and the trace says which kinds and how long, never the text', () => {
    const out = read(HP);
    assert.ok(out.note, 'a note with headings');
    assert.deepEqual(out.note.leftOut.map((l) => l.kind), ['assessment', 'hospital_course', 'diagnosis']);
    for (const l of out.note.leftOut) assert.ok(l.chars > 10 && l.chars < HP.length);
    assert.equal(find(out.findings, /pneumonia|ceftriaxone|defervesced|antibiotics/i).length, 0, out.findings.map(sign).join(', '));
    assert.ok(!JSON.stringify(out.note).includes('pneumonia'));
  });

  it('a short clinician question with one labelled part is read whole, its assessment included', () => {
    const out = read('58F productive cough, fever, R pleuritic CP. Assessment: ?pneumonia vs PE');
    assert.equal(out.note, null);
    assert.ok(find(out.findings, /pneumonia/i).length > 0);
  });

  it('past medical and surgical history are history; medications and allergies are treatment history, never present findings', () => {
    const fs = read(HP).findings;
    for (const f of find(fs, /hypertension|hypothyroidism|appendectomy/i)) assert.equal(f.temporality, 'historical', sign(f));
    const treatment = fs.filter((f) => f.section === 'meds' || f.section === 'allergies');
    assert.ok(treatment.length >= 2);
    for (const f of [...treatment, ...find(fs, /lisinopril|levothyroxine|penicillin|hives/i)]) assert.equal(f.temporality, 'historical', sign(f));
    // In the HPI the same kind of words stay present and current.
    const cough = find(fs, /productive cough/)[0]!;
    assert.deepEqual([cough.polarity, cough.temporality, cough.section], ['present', 'current', 'hpi']);
  });

  it('the family history is the family\'s, one diagnosis a line or after the heading', () => {
    const fs = read(HP).findings;
    for (const f of find(fs, /diabetes|breast cancer/i)) assert.equal(f.experiencer, 'family', sign(f));
    assert.ok(find(fs, /diabetes|breast cancer/i).length === 2);
  });

  it('exam findings keep their polarity; templated normals give what they deny or nothing', () => {
    const fs = read(HP).findings;
    const signs = fs.filter((f) => f.section === 'exam').map(sign);
    for (const s of ['+Crackles at the right base', '-JVD', '-murmurs', '-rubs', '-gallops', '-clubbing', '-cyanosis', '-edema', '-neck stiffness', '-abdominal distension']) assert.ok(signs.includes(s), `${s} in ${signs.join(', ')}`);
    for (const normal of [/^soft$/i, /bowel sounds/i, /^perrla$/i, /^eomi$/i, /^ncat$/i, /regular rhythm/i, /oriented/i, /^MMM$/]) {
      assert.equal(fs.filter((f) => f.polarity === 'present' && normal.test(f.text)).length, 0, `${normal} read as present`);
    }
  });

  it('"ROS: negative except as in HPI", "All other systems reviewed and negative" say nothing', () => {
    for (const t of ['ROS: negative except as in HPI.', 'REVIEW OF SYSTEMS:  A 10-point review of systems is otherwise negative.', 'ROS:  All other systems reviewed and are negative.']) {
      assert.deepEqual(read(t).findings.map(sign), [], t);
    }
  });

  it('abbreviations as clinicians chart them: CTAB, NAD, no JVD, RRR, no m/r/g, soft NT/ND', () => {
    assert.deepEqual(read('Lungs: CTAB.').findings.map(sign), ['-crackles', '-wheezing']);
    assert.deepEqual(read('Lungs: clear to auscultation bilaterally.').findings.map(sign), ['-crackles', '-wheezing']);
    assert.deepEqual(read('GEN: NAD.').findings.map(sign), []);
    // One labelled line alone keeps its site, as a record's rendering does ("Neck: JVD").
    assert.deepEqual(read('Neck: no JVD.').findings.map((f) => [f.polarity, /JVD$/.test(f.text)]), [['absent', true]]);
    assert.deepEqual(read('CV: tachycardic, no JVD.').findings.map(sign), ['+tachycardic', '-JVD']);
    assert.deepEqual(read('Heart: RRR, no m/r/g.').findings.filter((f) => f.polarity === 'present').map(sign), []);
    assert.deepEqual(read('Abd: soft, NT/ND.').findings.map(sign), ['-abdominal distension']);
    assert.deepEqual(read('Extremities: no clubbing, cyanosis or edema.').findings.map(sign), ['-clubbing', '-cyanosis', '-edema']);
    // Dictated in whole sentences, the same normals.
    assert.deepEqual(read('HEENT:  Pupils are equal, round and reactive to light.  Sclerae are anicteric.\nNECK:  Neck is supple.\nABDOMEN:  Abdomen is soft, nontender.').findings.map(sign), ['-neck stiffness', '-tenderness']);
    // An abnormal exam stays: "not soft" is no normal, "rigid" and "distended" are findings.
    assert.deepEqual(read('Abdomen: rigid, distended, diffusely tender.').findings.filter((f) => f.polarity === 'present').length, 3);
  });

  it('headers and template words never become findings', () => {
    const heads = /^(?:chief complaint|history of present illness|past (?:medical|surgical) history|medications|allergies|social history|family history|review of systems|physical examination|general|heent|neck|lungs|heart|abdomen|extremities|neurologic|laboratory data|negative|noncontributory|unremarkable|within normal limits|none)$/i;
    const note = `${HP}\nFAMILY HISTORY:  Noncontributory.\nSKIN:  Unremarkable.\nPSYCH:  Within normal limits.\nALLERGIES:  NKDA.`;
    assert.deepEqual(read(note).findings.filter((f) => heads.test(f.text.trim())).map(sign), []);
  });
});
