import assert from 'node:assert/strict';
import type { BuildManifest } from '../../src/domain/artifacts.js';
import type { Finding, NormalizedRecord } from '../../src/domain/record.js';
import { interactiveStart } from '../../src/eval/dialogue-protocols.js';
import { chooseHeldOut, heldOutRecords, heldOutReport, heldOutTracker } from '../../src/eval/held-out.js';
import { assertNoLeakage, findLeakage, indexedRecords, LeakageError } from '../../src/eval/leakage.js';
import { heldOutHtml, heldOutLines } from '../../src/eval/report-held-out.js';
import type { EvalReport } from '../../src/eval/types.js';
import type { Question } from '../../src/followups/question-model.js';
import { KG_BUILD_IDS } from '../../src/followups/record-kg.js';
import { recordAnswer } from '../../src/followups/simulate.js';
import { patientDigest } from '../../src/sources/split-tracker.js';
import { skippedRows } from '../../kg-build/report.js';
import { dialogueMetrics } from '../../src/eval/dialogue-metrics.js';
import { interactiveHtml } from '../../src/eval/report-dialogue.js';

const f = (code: string, valueCode: string | null, polarity: 'present' | 'absent' = 'present', antecedent: boolean | null = false): Finding => ({ text: `${code}=${valueCode}`, polarity, code, valueCode, question: null, valueText: null, antecedent });
const visit = (id: string, patient: string | null, findings: Finding[] = [], diagnosis = 'Pneumonia'): NormalizedRecord => ({
  id, patient, diagnosis, icd10: null, age: 50, sex: 'F', findings, initialFindingCode: null, text: `age: 50\nsex: female\n${findings.map((x) => x.text).join('\n')}`, location: id,
});
const fid = (code: string, value: string | null) => KG_BUILD_IDS.featureId(f(code, value));
const yesNo = (code: string): Question => ({ id: `q:${code}`, code, text: code, answerType: 'yes-no', options: [{ featureId: fid(code, null), valueCode: null, label: code }], antecedent: null });
const oneOf = (code: string, values: string[]): Question => ({ id: `q:${code}`, code, text: code, answerType: 'one-of', options: values.map((v) => ({ featureId: fid(code, v), valueCode: v, label: v })), antecedent: null });

const manifest = (over: Partial<BuildManifest> = {}): BuildManifest => ({
  buildId: 'kg-1', source: 'omop:postgres://h/db (schema cdm, label primary)', embedder: 'e', embeddingDim: 2,
  recordIndex: { kind: 'flat', size: 0, file: 'r', rows: 'r' }, featureIndex: { size: 0, file: 'f', ids: 'f' }, recordIdsFile: 'r', createdAt: '',
  ...over,
});
const SPLIT = { testFraction: 0.3, seed: 1, stratify: false, unit: 'patient' as const, train: { records: 7, patients: 2 }, test: { records: 3, patients: 1 }, patientsFile: 'split-patients.json' };

describe('eval on the held-out part of any source (issue 25)', () => {
  it('the simulated patient of an open-world record: yes, no when denied or another value, "don\'t know" when silent', () => {
    const rec = visit('v1', 'p1', [f('SNOMED:cough', null), f('SNOMED:fever', null, 'absent'), f('LOINC:wbc', 'H')]);
    for (const world of ['open', 'closed'] as const) {
      assert.deepEqual(recordAnswer(yesNo('SNOMED:cough'), rec, KG_BUILD_IDS, world), { type: 'yes' });
      assert.deepEqual(recordAnswer(yesNo('SNOMED:fever'), rec, KG_BUILD_IDS, world), { type: 'no' }, `${world}: a denied finding is a no, never a yes`);
      assert.deepEqual(recordAnswer(oneOf('LOINC:wbc', ['L', 'H']), rec, KG_BUILD_IDS, world), { type: 'options', optionIds: [fid('LOINC:wbc', 'H')] });
      assert.deepEqual(recordAnswer(oneOf('LOINC:wbc', ['L', 'N']), rec, KG_BUILD_IDS, world), { type: 'no' }, `${world}: measured in another bin`);
    }
    assert.deepEqual(recordAnswer(yesNo('SNOMED:rash'), rec, KG_BUILD_IDS, 'open'), { type: 'unknown' });
    assert.deepEqual(recordAnswer(oneOf('LOINC:crp', ['L', 'H']), rec, KG_BUILD_IDS, 'open'), { type: 'unknown' }, 'a lab never measured');
  });

  it('a DDXPlus record answers every DDXPlus question, and no question DDXPlus never asked', () => {
    const rec = visit('d1', 'p1', [f('E_91', null)]);
    assert.deepEqual(recordAnswer(yesNo('E_91'), rec, KG_BUILD_IDS, 'closed'), { type: 'yes' });
    assert.deepEqual(recordAnswer(yesNo('E_53'), rec, KG_BUILD_IDS, 'closed'), { type: 'no' }, 'DDXPlus lists every evidence: silence is a no');
    assert.deepEqual(recordAnswer(oneOf('E_55', ['V_29', 'V_101']), rec, KG_BUILD_IDS, 'closed'), { type: 'no' });
    // A KG built from DDXPlus and notes asks of HPO and emergent concepts too: the DDXPlus record cannot say.
    assert.deepEqual(recordAnswer(yesNo('HP:0001945'), rec, KG_BUILD_IDS, 'closed'), { type: 'unknown' });
    assert.deepEqual(recordAnswer(yesNo('SNOMED:rash'), rec, KG_BUILD_IDS, 'closed'), { type: 'unknown' });
  });

  it('an interactive start without a chief complaint opens with the visit, not the history', () => {
    const rec = visit('v1', 'p1', [f('SNOMED:asthma', null, 'present', true), f('SNOMED:fever', null, 'absent'), f('SNOMED:cough', null)]);
    assert.deepEqual(interactiveStart(rec).findings.map((x) => x.code), ['SNOMED:cough']);
    assert.deepEqual(interactiveStart(visit('v2', 'p1', [f('SNOMED:asthma', null, 'present', true)])).findings.map((x) => x.code), ['SNOMED:asthma']);
  });

  it("takes the build's split for the build's own source, the flags' when given, none for another source", () => {
    const m = manifest({ split: SPLIT });
    assert.deepEqual(chooseHeldOut(m, m.source, { testFraction: null, seed: null }), { split: { testFraction: 0.3, seed: 1, stratify: false }, from: 'build' });
    assert.deepEqual(chooseHeldOut(manifest({ split: SPLIT, source: `csv:a.csv + ${m.source}` }), m.source, { testFraction: null, seed: null })?.from, 'build', 'one of several sources');
    assert.equal(chooseHeldOut(m, 'ddxplus:/tmp/split/test', { testFraction: null, seed: null }), null);
    assert.equal(chooseHeldOut(manifest(), m.source, { testFraction: null, seed: null }), null, 'a build on the whole source');
    assert.deepEqual(chooseHeldOut(manifest(), 'x', { testFraction: 0.2, seed: 4 }), { split: { testFraction: 0.2, seed: 4, stratify: false }, from: 'flags' });
    assert.throws(() => chooseHeldOut(manifest(), 'x', { testFraction: 0.2, seed: null }), /--seed/);
  });

  it('streams the held-out side; refuses a patient on both sides, reports equal content of other patients', async () => {
    const records = Array.from({ length: 30 }, (_, i) => visit(`v${i}`, `p${i % 6}`, [f('SNOMED:cough', null)]));
    const plan = { split: { testFraction: 0.3, seed: 1, stratify: false }, from: 'build' as const };
    const tracker = heldOutTracker(plan);
    const test: NormalizedRecord[] = [];
    for await (const r of heldOutRecords((async function* () { yield* records; })(), tracker)) test.push(r);
    const seen = tracker.summary();
    assert.equal(seen.test.records, test.length);
    assert.equal(seen.train.records + seen.test.records, 30);
    assert.ok(test.length > 0 && test.length < 30, `${test.length} held out`);
    const testPatients = new Set(test.map((r) => r.patient));
    const trainRecords = records.filter((r) => !testPatients.has(r.patient));
    const digests = new Set(trainRecords.map((r) => patientDigest(1, r.patient!)));
    // Every record has the same content: equal content of other patients is not leakage here.
    const clean = findLeakage(test, indexedRecords(trainRecords), { seed: 1, digests });
    assert.deepEqual([clean.idOverlap, clean.patientOverlap, clean.contentOverlap], [0, 0, test.length]);
    assert.doesNotThrow(() => assertNoLeakage(clean, { allowContentDuplicates: false, heldOut: true }));
    assert.throws(() => assertNoLeakage(clean, { allowContentDuplicates: false }), LeakageError, 'a separate test source: equal content still refused');
    // A held-out visit of a training patient (e.g. a split of the same database by visit).
    const leaked = findLeakage([visit('v99', trainRecords[0]!.patient!)], indexedRecords(trainRecords), { seed: 1, digests });
    assert.equal(leaked.patientOverlap, 1);
    assert.throws(() => assertNoLeakage(leaked, { allowContentDuplicates: true, heldOut: true }), /1 belong to a patient the build trained on/);
    const report = heldOutReport(plan, seen, manifest({ split: SPLIT }), clean);
    assert.deepEqual([report.unit, report.test.records, report.patients_on_both_sides, report.content_duplicates, report.build_train], ['patient', test.length, 0, test.length, SPLIT.train]);
  });

  it('the summary and the HTML state the unit, the counts on each side and the skipped rows by reason', () => {
    const r = {
      held_out: { from: 'build', unit: 'patient', test_fraction: 0.3, seed: 1, stratify: false, train: { records: 277, patients: 19 }, test: { records: 124, patients: 9 }, build_train: { records: 277, patients: 19 }, build_test: { records: 124, patients: 9 }, patients_on_both_sides: 0, content_duplicates: 2 },
      test_source: { description: 'omop:x', rows_read: 1791, records: 401, skipped: 1390, skipped_by_reason: { 'visit-without-condition': 1390 }, notes_read: 0 },
    } as unknown as EvalReport;
    const text = heldOutLines(r).join('\n');
    assert.match(text, /split by patient, test fraction 0.3, seed 1, from the build\): 124 records of 9 patients held out, 277 records of 19 patients in training; 0 patients on both sides/);
    assert.match(text, /1390 rows skipped \(visit-without-condition 1390\)/);
    const html = heldOutHtml(r);
    assert.match(html, /held out: records \/ patients<\/td><td class="n">124 \/ 9/);
    assert.match(html, /rows skipped: visit-without-condition<\/td><td class="n">1390/);
  });

  it('the build report names skipped rows by what they are, not "malformed"', () => {
    const line = skippedRows({ rowsRead: 1791, recordsEmitted: 401, skipped: 1390, skippedByReason: { 'visit-without-condition': 1388, 'missing-person': 2 }, examples: [] });
    assert.equal(line, '1390 source rows skipped (visit-without-condition 1388, missing-person 2)');
  });

  it('the interactive protocol per disease and its mix-ups at the last question count', () => {
    const run = (recordId: string, at0: string, at3: string) => ({ recordId, topAt: new Map([[0, at0], [3, at3]]), questionsToConfidence: null, topAtConfidence: null });
    const truth = (id: string) => (id.startsWith('flu') ? { id: 'dis:flu', name: 'Flu' } : { id: 'unknown:Rash', name: 'Rash' });
    const names: Record<string, string> = { 'dis:flu': 'Flu', 'dis:cold': 'Cold' };
    const m = dialogueMetrics([run('flu1', 'dis:cold', 'dis:flu'), run('flu2', 'dis:cold', 'dis:cold'), run('rash1', 'dis:flu', 'dis:cold')], truth, (d) => names[d] ?? d, [0, 3]);
    assert.equal(m.at, 3);
    assert.deepEqual(m.per_disease, [
      { disease_id: 'dis:flu', disease: 'Flu', n: 2, top1: { '0': 0, '3': 0.5 } },
      { disease_id: 'unknown:Rash', disease: 'Rash', n: 1, top1: { '0': 0, '3': 0 } },
    ]);
    assert.deepEqual(m.confusions.map((c) => [c.truth, c.predicted, c.count]), [['Flu', 'Cold', 1], ['Rash', 'Cold', 1]]);
    const html = interactiveHtml({ interactive_metrics: m } as unknown as EvalReport);
    assert.match(html, /<td>Flu<\/td><td class="n">2<\/td><td class="n">0.0%<\/td><td class="n">50.0%<\/td>/);
    assert.match(html, /top-1 after 3 questions/);
  });
});
