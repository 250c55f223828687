import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LexiconError } from '../../src/errors.js';
import {
  defaultSectionRulesPath,
  detectSections,
  loadSectionRules,
  parseSectionRules,
  withoutDiagnosisSections,
  type Section,
  type SectionRules,
} from '../../src/clinical-text/sections/index.js';

/**
 * Section detection and the blanking of sections that state the diagnosis (issue 24): a notes
 * KG must never learn the label from "Assessment: appendicitis", and the analyser must still
 * find every other finding at the offset it had in the note.
 */
const SOAP = [
  'CC: cough x3d',
  'HPI: 45 y/o F with productive cough and fever. T: 38.2 at home.',
  'PMH: asthma',
  'Meds: albuterol PRN',
  'Exam: T: 38.2 BP: 120/80 HR 104. Pain: 7/10. Crackles RLL.',
  'Labs: WBC 14.2',
  'Assessment: community-acquired pneumonia, CURB-65 1.',
  'Plan: amoxicillin 1 g TID. Follow-up in 48 h.',
].join('\n');

const DISCHARGE = [
  'Reason for admission: 34M with 1 day of periumbilical pain migrating to the RLQ.',
  'Hospital course: CT A/P: inflamed appendix, no abscess. Taken to OR HD1.',
  'IMPRESSION - acute appendicitis.',
  'Discharge Diagnosis: Acute uncomplicated appendicitis, s/p laparoscopic appendectomy.',
  'Disposition: home.',
].join('\n');

const kinds = (sections: Section[]) => sections.map((s) => s.kind);
const body = (text: string, s: Section) => text.slice(s.start, s.end);

describe('clinical text: section detection', () => {
  let rules: SectionRules;

  before(async () => {
    const loaded = await loadSectionRules();
    if (!loaded.ok) assert.fail(loaded.error.message);
    rules = loaded.value;
  });

  it('ships a rule for every kind the issue names, with the kinds that state the diagnosis marked', () => {
    const states = Object.fromEntries(rules.sections.map((r) => [r.kind, r.statesDiagnosis]));
    for (const kind of ['chief_complaint', 'hpi', 'pmh', 'psh', 'meds', 'allergies', 'social', 'family', 'ros', 'exam', 'labs', 'reason_for_admission']) {
      assert.equal(states[kind], false, kind);
    }
    // The hospital course tells what was found and done once the diagnosis was made ("CT: inflamed appendix. Taken to OR").
    for (const kind of ['assessment', 'plan', 'diagnosis', 'hospital_course']) assert.equal(states[kind], true, kind);
  });

  it('opens a section at each heading and runs it to the next heading', () => {
    const sections = detectSections(SOAP, rules);
    assert.deepEqual(kinds(sections), ['chief_complaint', 'hpi', 'pmh', 'meds', 'exam', 'labs', 'assessment', 'plan']);
    assert.deepEqual(sections.map((s) => s.heading), ['CC', 'HPI', 'PMH', 'Meds', 'Exam', 'Labs', 'Assessment', 'Plan']);
    assert.equal(body(SOAP, sections[1]!), ' 45 y/o F with productive cough and fever. T: 38.2 at home.\n');
    assert.deepEqual(sections.map((s) => s.statesDiagnosis), [false, false, false, false, false, false, true, true]);
  });

  it('keeps "T: 38.2", "BP: 120/80" and "Pain: 7/10" inside the exam section (not headings in the rules)', () => {
    const exam = detectSections(SOAP, rules).find((s) => s.kind === 'exam')!;
    assert.equal(body(SOAP, exam), ' T: 38.2 BP: 120/80 HR 104. Pain: 7/10. Crackles RLL.\n');
  });

  it('reads headings in any case, with ":" or "-" or alone on a line', () => {
    const sections = detectSections(DISCHARGE, rules);
    assert.deepEqual(kinds(sections), ['reason_for_admission', 'hospital_course', 'assessment', 'diagnosis', 'plan']);
    const alone = detectSections('61M chest pain since this morning.\n\nASSESSMENT AND PLAN\nNSTEMI, heparin.\n', rules);
    assert.deepEqual(kinds(alone), [null, 'assessment']);
    assert.equal(alone[1]!.heading, 'ASSESSMENT AND PLAN');
    assert.equal(body('A/P: CAP', detectSections('A/P: CAP', rules)[0]!), ' CAP');
  });

  it('reads a heading after a sentence end on the same line ("... x3 days. Assessment: ...")', () => {
    const text = 'CC: cough. HPI: 3 days of cough, no fever. Assessment: viral URI. Plan: fluids.';
    assert.deepEqual(kinds(detectSections(text, rules)), ['chief_complaint', 'hpi', 'assessment', 'plan']);
  });

  it('reads a diagnosis heading even mid-line in flattened text, but no other heading', () => {
    const text = 'Exam lungs clear Assessment: CAP Labs: pending';
    const sections = detectSections(text, rules);
    assert.deepEqual(kinds(sections), [null, 'assessment']);
    assert.equal(body(text, sections[1]!), ' CAP Labs: pending');
    // Lower case mid-line is prose, not a heading.
    assert.deepEqual(kinds(detectSections('Risk assessment: low.', rules)), [null]);
  });

  it('gives the text before the first heading kind null, and a note without headings one such section', () => {
    const text = '22M tall thin smoker, sudden sharp L CP. No trauma.';
    assert.deepEqual(detectSections(text, rules), [{ kind: null, heading: null, headingStart: 0, start: 0, end: text.length, statesDiagnosis: false, role: 'presentation' }]);
    assert.deepEqual(detectSections('', rules), []);
  });

  it('reads single-letter SOAP headings only with a colon and not before a number ("P: 88" is a pulse)', () => {
    assert.deepEqual(kinds(detectSections('S: cough O: T 38 A: likely viral P: fluids', rules)), ['hpi', 'assessment', 'plan']);
    // After an abbreviation "P:" is not read ("CT A/P:"), but it is still inside the assessment and blanked with it.
    const flat = 'S: cough O: T 38 A: CAP P: amox';
    assert.equal(withoutDiagnosisSections(flat, detectSections(flat, rules)).text.trimEnd(), 'S: cough O: T 38');
    assert.deepEqual(kinds(detectSections('Exam: T 38.2. P: 88. R: 16.', rules)), ['exam']);
  });

  it('does not let a problem-list line end the assessment ("# PE: heparin", "# Allergies: none")', () => {
    const text = 'HPI: dyspnea.\nPE: tachycardic.\nA/P:\n# PE: heparin gtt\n# Allergies: none known\n- DVT: duplex\nPE: recheck';
    assert.deepEqual(kinds(detectSections(text, rules)), ['hpi', 'exam', 'assessment']);
  });

  it('reads "CT A/P:" as abdomen and pelvis, not an assessment', () => {
    assert.deepEqual(kinds(detectSections(DISCHARGE, rules).slice(0, 2)), ['reason_for_admission', 'hospital_course']);
    const course = detectSections(DISCHARGE, rules)[1]!;
    assert.match(body(DISCHARGE, course), /CT A\/P: inflamed appendix/);
  });
});

describe('clinical text: blanking the sections that state the diagnosis', () => {
  let rules: SectionRules;

  before(async () => {
    const loaded = await loadSectionRules();
    if (!loaded.ok) assert.fail(loaded.error.message);
    rules = loaded.value;
  });

  /** Every character outside the blanked spans is unchanged; inside them only line breaks survive. */
  function assertBlanked(original: string, out: string, sections: Section[]) {
    assert.equal(out.length, original.length);
    const blanked = sections.filter((s) => s.statesDiagnosis);
    for (let i = 0; i < original.length; i++) {
      const inside = blanked.some((s) => i >= s.headingStart && i < s.end);
      const expected = inside && original[i] !== '\n' ? ' ' : original[i];
      assert.equal(out[i], expected, `offset ${i}`);
    }
  }

  it('blanks assessment and plan, headings included, and leaves every other offset as it was', () => {
    const sections = detectSections(SOAP, rules);
    const { text, removed } = withoutDiagnosisSections(SOAP, sections);
    assertBlanked(SOAP, text, sections);
    assert.ok(!/pneumonia|amoxicillin|Assessment|Plan/.test(text));
    assert.equal(text.indexOf('Crackles RLL'), SOAP.indexOf('Crackles RLL'));
    assert.equal(text.split('\n').length, SOAP.split('\n').length);
    assert.deepEqual(removed, [
      { kind: 'assessment', chars: 'Assessment: community-acquired pneumonia, CURB-65 1.\n'.length },
      { kind: 'plan', chars: 'Plan: amoxicillin 1 g TID. Follow-up in 48 h.'.length },
    ]);
  });

  it('blanks the hospital course, an impression and a discharge diagnosis and keeps the reason for admission', () => {
    const sections = detectSections(DISCHARGE, rules);
    const { text, removed } = withoutDiagnosisSections(DISCHARGE, sections);
    assertBlanked(DISCHARGE, text, sections);
    assert.ok(!/appendi|IMPRESSION|Discharge Diagnosis|home|Taken to OR/.test(text));
    assert.equal(text.indexOf('periumbilical pain'), DISCHARGE.indexOf('periumbilical pain'));
    assert.deepEqual(removed.map((r) => r.kind), ['hospital_course', 'assessment', 'diagnosis', 'plan']);
  });

  it('returns the text unchanged when no section states the diagnosis', () => {
    const text = 'CC: cough\nHPI: 3 days.';
    assert.deepEqual(withoutDiagnosisSections(text, detectSections(text, rules)), { text, removed: [] });
  });

  it('throws on sections that do not belong to the text rather than blank the wrong part', () => {
    const sections = detectSections(SOAP, rules);
    assert.throws(() => withoutDiagnosisSections(SOAP.slice(0, 20), sections), RangeError);
    assert.throws(() => withoutDiagnosisSections(SOAP, [...sections].reverse()), RangeError);
  });
});

describe('clinical text: section rules file', () => {
  let dir: string;
  let shipped: SectionRules;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-sections-'));
    shipped = JSON.parse(await readFile(defaultSectionRulesPath(), 'utf8')) as SectionRules;
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('detects headings from a rules file it is given (a site with other headings)', async () => {
    const path = join(dir, 'site.json');
    const site: SectionRules = {
      version: 1,
      provenance: 'test',
      sections: [{ kind: 'assessment', statesDiagnosis: true, headings: ['beurteilung'], ambiguous: [] }],
    };
    await writeFile(path, JSON.stringify(site));
    const loaded = await loadSectionRules(path);
    if (!loaded.ok) assert.fail(loaded.error.message);
    assert.deepEqual(kinds(detectSections('Anamnese: Husten.\nBeurteilung: Pneumonie', loaded.value)), [null, 'assessment']);
  });

  it('refuses a heading under two kinds and an upper-case heading, naming the field', () => {
    const twice = structuredClone(shipped);
    twice.sections[1]!.headings.push('cc');
    const dup = parseSectionRules(twice, 'x.json');
    assert.ok(!dup.ok && dup.error instanceof LexiconError && dup.error.field === `sections.1.headings.${twice.sections[1]!.headings.length - 1}`);
    const upper = structuredClone(shipped);
    upper.sections[0]!.headings[0] = 'CC';
    const up = parseSectionRules(upper, 'x.json');
    assert.ok(!up.ok && up.error.field === 'sections.0.headings.0');
  });

  it('reports a missing or malformed file as a LexiconError naming the path', async () => {
    const missing = await loadSectionRules(join(dir, 'absent.json'));
    assert.ok(!missing.ok && missing.error instanceof LexiconError && missing.error.path.endsWith('absent.json'));
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '[');
    const malformed = await loadSectionRules(bad);
    assert.ok(!malformed.ok && /not valid JSON/.test(malformed.error.message));
  });
});
