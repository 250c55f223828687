import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markUncalibrated, writeCalibration, type CalibrationFile } from '../../src/calibration/calibration-file.js';
import { buildCalibrated } from '../../src/calibration/cross-fit.js';
import { crossFitLines } from '../../src/calibration/cross-fit-report.js';
import { casesFromRecords } from '../../src/calibration/held-out-cases.js';
import { DEFAULT_HELD_OUT_SHARE, heldOutShare, isHeldOut, MAX_HELD_OUT_PATIENTS, MIN_HELD_OUT_PATIENTS, planHeldOut } from '../../src/calibration/held-out-share.js';
import { mergeSamples } from '../../src/calibration/cross-fit.js';
import { namedShippedText } from '../../src/calibration/run-calibration.js';
import type { TextCase } from '../../src/calibration/text-cases.js';
import { MIN_BAND_CASES } from '../../src/calibration/fit-temperature.js';
import { loadConfig } from '../../src/config.js';
import { buildDir, manifestPath, type BuildManifest } from '../../src/domain/artifacts.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { splitFilter } from '../../src/sources/split.js';

const rec = (id: string, o: Partial<NormalizedRecord> = {}): NormalizedRecord => ({
  id, diagnosis: 'Flu', icd10: null, age: 40, sex: 'F', findings: [], initialFindingCode: null, text: '', location: id, ...o,
});
async function* stream(xs: readonly NormalizedRecord[]): AsyncIterable<NormalizedRecord> {
  yield* xs;
}
const manifestOf = (buildId: string) => ({ buildId, source: 's', embedder: 'e', embeddingDim: 4, recordIndex: { kind: 'flat', size: 0, file: 'r', rows: 'r' }, featureIndex: { size: 0, file: 'f', ids: 'f' }, recordIdsFile: 'x', createdAt: 'now' }) as BuildManifest;

describe('default calibration: the held-out share (issue 48)', () => {
  const patients = Array.from({ length: 2000 }, (_, i) => rec(`r${i}`, { patient: `p${Math.floor(i / 2)}` }));

  it('holds out about the share of patients, all of a patient on one side, the same every run', () => {
    const held = patients.filter((r) => isHeldOut(r, DEFAULT_HELD_OUT_SHARE));
    const share = held.length / patients.length;
    assert.ok(share > 0.16 && share < 0.24, `share ${share}`);
    for (let i = 0; i < patients.length; i += 2) assert.equal(isHeldOut(patients[i]!, 0.2), isHeldOut(patients[i + 1]!, 0.2), patients[i]!.patient!);
    assert.deepEqual(patients.filter((r) => isHeldOut(r, 0.2)).map((r) => r.id), held.map((r) => r.id));
  });

  it('still holds out patients of a split train part made with any seed (the draw is salted)', () => {
    for (const seed of [0, 1, 2]) {
      const train = patients.filter(splitFilter({ seed, testFraction: 0.4, part: 'train' }));
      const share = train.filter((r) => isHeldOut(r, 0.2)).length / train.length;
      assert.ok(share > 0.15 && share < 0.25, `seed ${seed}: ${share}`);
    }
  });

  it('plans over the records the build keeps, and says when too few patients would be held out', async () => {
    const plan = await planHeldOut(stream(patients), () => true);
    assert.equal(plan.units, 1000);
    assert.equal(plan.tooSmall, null);
    assert.ok(plan.heldOutUnits >= MIN_HELD_OUT_PATIENTS);
    const small = await planHeldOut(stream(patients.slice(0, 100)), () => true);
    assert.equal(small.units, 50);
    assert.match(small.tooSmall ?? '', /^50 patients: a 20% share holds out \d+, fewer than the 40/);
    const kept = await planHeldOut(stream(patients), (r) => r.patient! < 'p5');
    assert.ok(kept.units < plan.units);
  });

  it('a large source holds out at most MAX_HELD_OUT_PATIENTS in expectation', () => {
    assert.equal(heldOutShare(1000), DEFAULT_HELD_OUT_SHARE);
    assert.equal(heldOutShare(1_000_000) * 1_000_000, MAX_HELD_OUT_PATIENTS);
    assert.equal(heldOutShare(100, { share: 0.3 }), 0.3);
  });
});

describe('default calibration: folds (disjoint held-out shares)', () => {
  const patients = Array.from({ length: 2000 }, (_, i) => rec(`r${i}`, { patient: `p${i}` }));

  it('folds are disjoint shares of the patients, fold 0 the share as before', () => {
    const inFold = (f: number) => new Set(patients.filter((r) => isHeldOut(r, 0.2, f)).map((r) => r.id));
    const all = [0, 1, 2, 3, 4].map(inFold);
    for (let a = 0; a < 5; a++) for (let b = a + 1; b < 5; b++) assert.equal([...all[a]!].filter((id) => all[b]!.has(id)).length, 0, `folds ${a} and ${b} overlap`);
    assert.equal(all.reduce((n, s) => n + s.size, 0), patients.length, 'five shares of 20% hold every patient out once');
    assert.deepEqual([...all[0]!], patients.filter((r) => isHeldOut(r, 0.2)).map((r) => r.id));
  });

  it('by default every patient held out once for coded records (up to MAX_HELD_OUT_PATIENTS), one fold for notes alone', async () => {
    const finding = { text: 'cough', polarity: 'present' as const, code: 'E_1', valueCode: null, question: 'cough?', valueText: null, antecedent: null };
    const codedPatients = patients.slice(0, 900).map((r) => ({ ...r, findings: [finding] }));
    const all = await planHeldOut(stream(codedPatients), () => true);
    assert.equal(all.folds, 5);
    assert.equal(all.heldOutUnits, 900, 'every patient held out once');
    // 5,000 patients: a 20% share already holds out ~1,000.
    const large = Array.from({ length: 5000 }, (_, i) => rec(`q${i}`, { patient: `q${i}`, findings: [finding] }));
    const big = await planHeldOut(stream(large), () => true);
    assert.equal(big.folds, Math.max(1, Math.floor(MAX_HELD_OUT_PATIENTS / large.filter((r) => isHeldOut(r, big.share)).length)));
    assert.ok(big.folds <= 1, `folds ${big.folds}`);
    const notes = await planHeldOut(stream(patients.slice(0, 900)), () => true);
    assert.equal(notes.folds, 1, 'further folds answer coded cases only: none for a source without findings');
    const small = await planHeldOut(stream(codedPatients.slice(0, MIN_BAND_CASES - 1)), () => true);
    assert.equal(small.folds, 1, 'fewer patients than a level needs: one fold');
  });

  it('asked-for folds never past every patient once, and count every patient they hold out', async () => {
    const small = patients.slice(0, 900);
    const three = await planHeldOut(stream(small), () => true, { folds: 3 });
    assert.equal(three.folds, 3);
    assert.equal(three.heldOutUnits, small.filter((r) => [0, 1, 2].some((f) => isHeldOut(r, 0.2, f))).length);
    assert.equal((await planHeldOut(stream(small), () => true, { folds: 9 })).folds, 5, 'at most 1 / share');
  });

  it('merges the folds\' samples, counts summed', () => {
    const s = (truth: number) => ({ scores: [0, 1], truth, completeness: 0 });
    const m = mergeSamples([{ byKind: { coded: [s(0)], text: [] }, counts: { record: 1 } }, { byKind: { coded: [s(1)], text: [s(1)] }, counts: { record: 1, 'record-text': 1 } }]);
    assert.deepEqual(m.byKind.coded.map((x) => x.truth), [0, 1]);
    assert.equal(m.byKind.text.length, 1);
    assert.deepEqual(m.counts, { record: 2, 'record-text': 1 });
  });
});

describe('default calibration: cases and shipped text', () => {
  it('a record with notes gives them as a text case; notes only: no coded case', () => {
    const finding = { text: 'cough', polarity: 'present' as const, code: 'E_1', valueCode: null, question: 'cough?', valueText: null, antecedent: null };
    const notesOnly = rec('a', { notes: [{ origin: 'note 1', title: null, text: 'Cough for 3 days.' }] });
    const both = rec('b', { findings: [finding], text: 'cough', notes: [{ origin: 'n', title: null, text: 'HPI: cough.' }, { origin: 'm', title: null, text: '  ' }] });
    const cases = casesFromRecords([notesOnly, both, rec('c', { diagnosis: 'Unknown' })], (r) => (r.diagnosis === 'Flu' ? 'd1' : null));
    assert.deepEqual(cases.map((c) => `${c.kind}:${c.variant}`), ['text:record-notes', 'coded:record', 'text:record-text', 'text:record-notes']);
    assert.equal(cases[0]!.input.text, 'Cough for 3 days.');
    assert.equal(cases[3]!.input.text, 'HPI: cough.');
  });

  it('shipped labelled text counts only when the KG names enough of its diagnoses', () => {
    const cases: TextCase[] = ['Flu', 'Flu', 'Flu', 'Cold'].map((condition) => ({ text: 't', condition, age: null, sex: null }));
    const shipped = { cases, sources: ['text:x'], minNamed: 0.9 };
    assert.deepEqual(namedShippedText(shipped, () => 'd'), { used: true, note: 'shipped labelled text used: the KG names the diagnoses of 4 of its 4 cases' });
    const partial = namedShippedText(shipped, (c) => (c.condition === 'Flu' ? 'd' : null));
    assert.equal(partial?.used, false);
    assert.match(partial!.note, /3 of its 4 cases \(needs 90%\)/);
    assert.equal(namedShippedText({ ...shipped, cases: [] }, () => 'd'), null);
  });
});

describe('default calibration: the build and its manifest', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dx-crossfit-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('a build too small to hold out enough is built once, on every record, and its manifest says why', async () => {
    const config = { ...loadConfig({ ...process.env, DXGRAPH_DATA_DIR: dir }), dataDir: dir };
    const calls: { dataDir: string; include: unknown }[] = [];
    const out = await buildCalibrated({
      config,
      build: async (dataDir, include) => {
        calls.push({ dataDir, include });
        await mkdir(buildDir(dataDir, 'kg-small'), { recursive: true });
        return { buildId: 'kg-small', manifest: manifestOf('kg-small') };
      },
      fitBuild: async (dataDir) => {
        calls.push({ dataDir, include: 'fit' });
        throw new Error('no fit KG for a build too small to hold out');
      },
      records: () => stream(Array.from({ length: 30 }, (_, i) => rec(`r${i}`))),
      inBuild: () => () => true,
      log: () => {},
    });
    assert.deepEqual(calls, [{ dataDir: dir, include: null }]);
    assert.equal(out.calibration, null);
    const written = JSON.parse(await readFile(manifestPath(dir, 'kg-small'), 'utf8')) as BuildManifest;
    assert.equal(written.calibration, undefined);
    assert.match(written.uncalibrated ?? '', /^too small to calibrate: 30 patients: .*read the ranks$/);
    assert.deepEqual(out.served.manifest, written);
    assert.match(crossFitLines(out).join('\n'), /^calibration: none, 30 patients: .*the copilot shows ranks$/);
  });

  it('a calibration names its basis in the manifest and clears an earlier "uncalibrated"', async () => {
    await mkdir(buildDir(dir, 'kg-a'), { recursive: true });
    const marked = await markUncalibrated(dir, manifestOf('kg-a'), 'too small');
    assert.equal(marked.uncalibrated, 'too small');
    const file: CalibrationFile = { schema: 'dxgraph-calibration/1', method: 'temperature', buildId: 'kg-a', kinds: {}, heldOut: { sources: ['held-out: 50 patients'], cases: { record: 50 } }, basis: 'cross-fit: test', createdAt: 'now' };
    const next = await writeCalibration(dir, marked, file);
    assert.deepEqual(next.calibration, { file: 'calibration.json', basis: 'cross-fit: test' });
    assert.equal(next.uncalibrated, undefined);
    assert.deepEqual(JSON.parse(await readFile(manifestPath(dir, 'kg-a'), 'utf8')), next);
  });

  it('the report says which kinds were fitted, on what, and what the fit cost', () => {
    const fit = { b0: 1.1, b1: -0.5, tail: null, mix: null, topLabel: null, n: 120, nllBefore: 0.8, nllAfter: 0.7, iterations: 4 };
    const calibration: CalibrationFile = { schema: 'dxgraph-calibration/1', method: 'temperature', buildId: 'kg-a', kinds: { coded: fit }, heldOut: { sources: ['held-out: 40 patients'], cases: { record: 40, 'chief-complaint': 40, partial: 40 } }, basis: 'cross-fit: x', createdAt: 'now' };
    const lines = crossFitLines({ plan: { share: 0.2, units: 200, heldOutUnits: 40, folds: 1, tooSmall: null }, calibration, ms: { fitBuild: 12_000, fit: 3_000, servedBuild: 14_000 } }).join('\n');
    assert.match(lines, /^calibration: posterior calibration for build kg-a/);
    assert.match(lines, /coded +n=120 +b0=1\.100 b1=-0\.500/);
    assert.match(lines, /text input: too few held-out cases \(under 30\): served uncalibrated/);
    assert.match(lines, /sources: held-out: 40 patients/);
    assert.match(lines, /fitted: cross-fit: x/);
    assert.match(lines, /cost: fit build 12\.0 s \+ fit 3\.0 s, beside the served build's 14\.0 s/);
  });
});
