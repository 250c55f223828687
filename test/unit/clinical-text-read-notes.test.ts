import assert from 'node:assert/strict';
import { defaultNotePreparer } from '../../src/clinical-text/prepare-note.js';
import { readNotes, type NoteReaderDeps, type PreparedNote } from '../../src/clinical-text/read-notes.js';
import type { FeatureNode } from '../../src/domain/kg.js';
import type { Finding, NormalizedRecord, RecordNote } from '../../src/domain/record.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { EMERGENT_CANDIDATE, featureKey } from '../../kg-build/feature-key.js';
import { emptyNotesReport, readRecordNotes, withNotesRead } from '../../kg-build/read-notes-stage.js';

/**
 * Notes read at build time (issue 24): the shipped preparer (identifiers scrubbed, diagnosis
 * sections blanked), then the query's own analysis and tiered concept layer against a small
 * vocabulary snapshot; the build stage that adds what was read to a record and drops the note.
 */
const feature = (id: string, text: string, more: Partial<FeatureNode> = {}): FeatureNode => ({
  id, text, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null, ...more,
});
const vocabulary = buildSnapshot({
  categories: [], subcategories: [], diseases: [], manifestations: [],
  features: [
    feature('feat:x1', 'fever', { code: 'X1' }),
    feature('feat:hpo-fever', 'Fever', { code: 'HP:0001945', vocabulary: 'HPO', forms: ['Fever', 'Pyrexia'] }),
    feature('feat:hpo-rebound', 'Rebound tenderness', { code: 'HP:0031453', vocabulary: 'HPO', forms: ['Rebound tenderness'] }),
  ],
});

const NOTE = 'Pt: John Smith MRN 00482913. HPI: fever and guarding, no vomiting. Assessment: acute appendicitis. Plan: surgery.';
const LEAKS = /appendicitis|surgery|john|smith|00482913/i;
const note = (text: string, origin = 'note 1'): RecordNote => ({ origin, title: null, text });

let deps: NoteReaderDeps;
before(async () => {
  deps = { vocabulary, lexicon: null, prepare: await defaultNotePreparer() };
});

function record(id: string, notes: RecordNote[] | null, findings: Finding[] = [], text = 'age 40'): NormalizedRecord {
  return { id, diagnosis: 'Appendicitis', icd10: null, age: 40, sex: 'M', findings, initialFindingCode: null, text, location: id, ...(notes ? { notes } : {}) };
}

describe('clinical-text prepare-note: the shipped preparer', () => {
  it('scrubs the name and record number and blanks the assessment and plan, keeping offsets', () => {
    const p = deps.prepare(NOTE);
    assert.doesNotMatch(p.text, LEAKS);
    assert.match(p.text, /fever and guarding, no vomiting/);
    // Sections are blanked, not cut: what followed the HPI is whitespace of the same length.
    const end = (t: string) => t.indexOf('vomiting.') + 'vomiting.'.length;
    assert.match(p.text.slice(end(p.text)), /^\s+$/);
    assert.equal(p.text.length - end(p.text), NOTE.length - end(NOTE));
    assert.deepEqual(Object.keys(p.leftOut).sort(), ['assessment', 'plan']);
    for (const v of Object.values(p.leftOut)) assert.ok(v > 0);
    assert.deepEqual(p.scrubbed, { NAME: 1, MRN: 1 });
  });

  it('a note with nothing to scrub or leave out comes back as written, with empty counts', () => {
    const p = deps.prepare('HPI: fever for two days, no cough.');
    assert.equal(p.text, 'HPI: fever for two days, no cough.');
    assert.deepEqual(p.leftOut, {});
    assert.deepEqual(p.scrubbed, {});
  });
});

describe('clinical-text read-notes: a note read against the vocabularies', () => {
  it('reads the coded fever as present, no label, procedure or name in findings or candidates, and counts what was left out and scrubbed', () => {
    const r = readNotes([note(NOTE)], deps);
    assert.deepEqual(r.findings.map((f) => [f.code, f.polarity]), [['X1', 'present']], 'the coded tier reads "fever" before HPO does');
    for (const f of r.findings) assert.doesNotMatch(JSON.stringify(f), LEAKS);
    for (const c of r.candidates) assert.doesNotMatch(`${c.key} ${c.surface}`, LEAKS);
    assert.ok(r.candidates.some((c) => c.key === 'guard' && c.surface === 'guarding'), 'guarding, read by no vocabulary, is a candidate');
    assert.ok(!r.candidates.some((c) => /vomit/.test(c.key)), 'an absent finding gives no candidate');
    assert.ok(r.unread >= 2, `unread ${r.unread}: guarding and vomiting at least`);
    assert.ok(r.leftOut['assessment']! > 0 && r.leftOut['plan']! > 0, JSON.stringify(r.leftOut));
    assert.equal(r.scrubbed['NAME'], 1);
    assert.equal(r.scrubbed['MRN'], 1);
  });

  it('an HPO synonym reads the phenotype concept, with its vocabulary and forms on the finding', () => {
    const r = readNotes([note('HPI: pyrexia since yesterday.')], deps);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0]!.code, 'HP:0001945');
    assert.deepEqual(r.findings[0]!.concept, { vocabulary: 'HPO', forms: ['Fever', 'Pyrexia'] });
  });

  it('across notes of one record: present anywhere wins over a denial elsewhere; counts add up', () => {
    const r = readNotes([note('ROS: no fever. Dr Smith reviewed.', 'note 1'), note('HPI: fever overnight. MRN 12345678.', 'note 2')], deps);
    assert.deepEqual(r.findings.map((f) => [f.code, f.polarity]), [['X1', 'present']]);
    const denied = readNotes([note('ROS: no fever.')], deps);
    assert.deepEqual(denied.findings.map((f) => [f.code, f.polarity]), [['X1', 'absent']]);
    assert.equal(r.scrubbed['MRN'], 1);
  });

  it('the reader uses the preparer it is given (and only its text)', () => {
    const seen: string[] = [];
    const prepare = (text: string): PreparedNote => { seen.push(text); return { text: 'fever', leftOut: { impression: 3 }, scrubbed: { DATE: 2 } }; };
    const r = readNotes([note('anything at all')], { ...deps, prepare });
    assert.deepEqual(seen, ['anything at all']);
    assert.deepEqual(r.findings.map((f) => f.code), ['X1']);
    assert.deepEqual(r.leftOut, { impression: 3 });
    assert.deepEqual(r.scrubbed, { DATE: 2 });
  });

  // A follow-on answer implies its question's yes, as the query side adds it (implied-parents.ts):
  // a DDXPlus record always has both, and a note's sore throat (a pain location) is a pain.
  it('a present follow-on answer brings its parent question\'s yes; a denied one or a parent said otherwise does not', () => {
    const v = buildSnapshot({
      categories: [], subcategories: [], diseases: [], manifestations: [],
      features: [
        feature('feat:pain', 'pain somewhere', { code: 'P1' }),
        feature('feat:throat', 'sore throat', { code: 'L1', valueCode: 'V1', parentCode: 'P1' }),
      ],
    });
    const read = (text: string) => readNotes([note(text)], { ...deps, vocabulary: v }).findings.map((f) => [f.code, f.polarity]).sort();
    assert.deepEqual(read('HPI: sore throat since Monday.'), [['L1', 'present'], ['P1', 'present']]);
    assert.deepEqual(read('HPI: no sore throat.'), [['L1', 'absent']]);
    assert.deepEqual(read('HPI: sore throat. ROS: no pain somewhere.'), [['L1', 'present'], ['P1', 'absent']]);
  });

  // The scrubber's placeholders ("Pt: [NAME] MRN [MRN].") are blanked before reading: in every
  // note's header they would otherwise pass k and become an emergent concept of every disease.
  it('scrub placeholders ([NAME], [MRN], ...) never become candidate emergent phrases', () => {
    const r = readNotes([note(NOTE)], deps);
    assert.deepEqual(r.candidates.filter((c) => /\b(?:name|mrn)\b/.test(c.key)), []);
  });
});

describe('kg-build read-notes-stage', () => {
  it('withNotesRead: the note is gone, the text gains what was read (no name, no label), candidates ride along as emergent-candidate findings', () => {
    const report = emptyNotesReport();
    const before = record('r1', [note(NOTE)]);
    const out = withNotesRead(before, deps, report);
    assert.ok(!('notes' in out), 'no notes key on the record read');
    assert.doesNotMatch(out.text, /Smith/);
    assert.doesNotMatch(out.text, /appendicitis/i);
    assert.match(out.text, /^age 40\n/, 'the record text comes first');
    // The vocabulary findings read (whether candidate phrases join the text is being changed in the working tree).
    assert.ok(out.text.split('\n').includes('fever'), out.text);
    const fever = out.findings.filter((f) => f.code === 'X1');
    assert.deepEqual(fever.map((f) => f.polarity), ['present']);
    const cands = out.findings.filter((f) => f.concept?.vocabulary === EMERGENT_CANDIDATE);
    assert.ok(cands.length > 0);
    const guard = cands.find((f) => f.text === 'guard');
    assert.ok(guard, JSON.stringify(cands.map((f) => f.text)));
    assert.equal(guard.polarity, 'present');
    assert.equal(guard.code, null);
    assert.deepEqual(guard.concept!.forms, ['guarding']);
    assert.equal(featureKey(guard), 'e:guard');
    for (const f of out.findings) assert.doesNotMatch(JSON.stringify(f), LEAKS);
    // The input record is not changed.
    assert.deepEqual(before.notes, [note(NOTE)]);
    assert.equal(before.findings.length, 0);
    // The report.
    assert.equal(report.records, 1);
    assert.equal(report.notes, 1);
    assert.equal(report.findings, 1);
    assert.ok(report.leftOut['assessment']! > 0 && report.leftOut['plan']! > 0);
    assert.equal(report.scrubbed['NAME'], 1);
    assert.deepEqual([...report.keys], ['c:X1=']);
  });

  it('withNotesRead: a concept the record carries as a code keeps the source answer', () => {
    const coded: Finding = { text: 'fever', polarity: 'absent', code: 'X1', valueCode: null, question: null, valueText: null, antecedent: null };
    const report = emptyNotesReport();
    const out = withNotesRead(record('r1', [note('HPI: fever.')], [coded]), deps, report);
    assert.deepEqual(out.findings.filter((f) => f.code === 'X1').map((f) => f.polarity), ['absent']);
    assert.equal(report.keys.size, 0);
  });

  it('withNotesRead: a record without notes passes through unchanged (the same object), the report untouched', () => {
    const report = emptyNotesReport();
    const r = record('r0', null, [{ text: 'cough', polarity: 'present', code: 'X2', valueCode: null, question: null, valueText: null, antecedent: null }]);
    assert.equal(withNotesRead(r, deps, report), r);
    const empty = record('r0', []);
    assert.equal(withNotesRead(empty, deps, report), empty);
    assert.deepEqual({ ...report, keys: [...report.keys] }, { ...emptyNotesReport(), keys: [] });
  });

  async function* stream(records: NormalizedRecord[], log: string[]): AsyncIterable<NormalizedRecord> {
    for (const r of records) {
      log.push(`source ${r.id}`);
      yield r;
    }
  }

  it('readRecordNotes with a loader: called once, only when the first record with notes arrives', async () => {
    const log: string[] = [];
    const loader = async () => { log.push('load'); return deps; };
    const records = [record('a', null), record('b', null), record('c', [note('HPI: fever.')]), record('d', [note('HPI: pyrexia.')]), record('e', null)];
    const report = emptyNotesReport();
    const out: NormalizedRecord[] = [];
    for await (const r of readRecordNotes(stream(records, log), loader, report)) {
      log.push(`out ${r.id}`);
      out.push(r);
    }
    assert.deepEqual(log, ['source a', 'out a', 'source b', 'out b', 'source c', 'load', 'out c', 'source d', 'out d', 'source e', 'out e']);
    assert.deepEqual(out.map((r) => r.id), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(out[0], records[0], 'a record without notes is yielded as it came');
    assert.ok(out.every((r) => !r.notes));
    assert.deepEqual(out[2]!.findings.map((f) => f.code), ['X1']);
    assert.deepEqual(out[3]!.findings.map((f) => f.code), ['HP:0001945']);
    assert.equal(report.records, 2);
  });

  it('readRecordNotes: a source without notes never loads the vocabularies', async () => {
    let calls = 0;
    const loader = async () => { calls++; return deps; };
    const out: NormalizedRecord[] = [];
    for await (const r of readRecordNotes(stream([record('a', null), record('b', [])], []), loader, emptyNotesReport())) out.push(r);
    assert.equal(calls, 0);
    assert.equal(out.length, 2);
  });

  it('readRecordNotes: a record the include predicate drops is passed on unread, and alone does not load the vocabularies', async () => {
    let calls = 0;
    const loader = async () => { calls++; return deps; };
    const held = record('held', [note(NOTE)]);
    const kept = record('kept', [note('HPI: fever.')]);
    const report = emptyNotesReport();
    const include = (r: NormalizedRecord) => r.id !== 'held';
    const it = readRecordNotes(stream([held, kept], []), loader, report, include)[Symbol.asyncIterator]();
    const first = await it.next();
    assert.equal(first.value, held, 'the held-out record goes on as it came (the scan drops it)');
    assert.equal(calls, 0, 'a held-out record with notes does not load the vocabularies');
    const second = await it.next();
    assert.equal(calls, 1);
    assert.ok(!second.value!.notes);
    assert.ok((await it.next()).done);
    assert.equal(report.records, 1);
    assert.equal(report.notes, 1);
    assert.equal(report.scrubbed['NAME'], undefined, "the held-out note's name never reached the report");
    assert.equal(report.leftOut['assessment'], undefined);
  });

  it('readRecordNotes with deps given directly reads every included record', async () => {
    const report = emptyNotesReport();
    const out: NormalizedRecord[] = [];
    for await (const r of readRecordNotes(stream([record('a', [note('HPI: fever.')]), record('b', [note('no fever')])], []), deps, report)) out.push(r);
    assert.deepEqual(out.map((r) => r.findings.map((f) => `${f.code} ${f.polarity}`)), [['X1 present'], ['X1 absent']]);
    assert.equal(report.records, 2);
    assert.deepEqual([...report.keys], ['c:X1=']);
  });
});
