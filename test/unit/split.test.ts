import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { InputError } from '../../src/errors.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { writeSplit } from '../../src/sources/split-files.js';
import { createSplitAssigner, splitFilter } from '../../src/sources/split.js';
import { createSplitTracker, patientDigest } from '../../src/sources/split-tracker.js';

async function collect(source: string, mapping?: string): Promise<NormalizedRecord[]> {
  const src = await openSource(parseSourceSpec(source, { mapping: mapping ?? null }), { strict: true });
  const out: NormalizedRecord[] = [];
  for await (const r of src.records()) out.push(r);
  return out;
}

describe('train/test split', function () {
  // Reads the 1,567-row sample several times; generous for loaded CI machines.
  this.timeout(60_000);
  let sample: NormalizedRecord[];
  let out: string;
  before(async () => {
    sample = await collect('ddxplus:datasets/ddxplus');
    out = await mkdtemp(join(tmpdir(), 'dxgraph-split-'));
  });
  after(() => rm(out, { recursive: true }));

  it('splitFilter is deterministic, disjoint, covers all, and close to the fraction', () => {
    const opts = { seed: 1, testFraction: 0.4 };
    const test = sample.filter(splitFilter({ ...opts, part: 'test' }));
    const train = sample.filter(splitFilter({ ...opts, part: 'train' }));
    assert.deepEqual(sample.filter(splitFilter({ ...opts, part: 'test' })).map((r) => r.id), test.map((r) => r.id));
    const testIds = new Set(test.map((r) => r.id));
    assert.ok(train.every((r) => !testIds.has(r.id)));
    assert.equal(train.length + test.length, sample.length);
    assert.ok(Math.abs(test.length / sample.length - 0.4) < 0.04, `test share ${test.length / sample.length}`);
    const other = sample.filter(splitFilter({ seed: 2, testFraction: 0.4, part: 'test' }));
    assert.notDeepEqual(other.map((r) => r.id), test.map((r) => r.id));
  });

  it('stratified split gives each diagnosis its share', () => {
    const assign = createSplitAssigner({ seed: 3, testFraction: 0.25, stratify: true });
    const perDx = new Map<string, { n: number; test: number }>();
    for (const r of sample) {
      const c = perDx.get(r.diagnosis) ?? { n: 0, test: 0 };
      c.n++;
      if (assign(r) === 'test') c.test++;
      perDx.set(r.diagnosis, c);
    }
    for (const [dx, c] of perDx) assert.ok(Math.abs(c.test - c.n * 0.25) <= 1, `${dx}: ${c.test} of ${c.n}`);
  });

  it('splits by patient when records name one: all visits of a patient on one side, stratified or not', () => {
    // 60 patients with 1-4 visits each, diagnoses varying across a patient's visits.
    const visits = Array.from({ length: 60 }, (_, p) => Array.from({ length: 1 + (p % 4) }, (__, v) => ({ id: `omop:db:${p * 10 + v}`, patient: `omop:db:person ${p}`, diagnosis: `dx${(p + v) % 3}` }))).flat();
    for (const stratify of [false, true]) {
      const assign = createSplitAssigner({ seed: 5, testFraction: 0.3, stratify });
      const sides = new Map<string, Set<string>>();
      for (const v of visits) sides.set(v.patient, (sides.get(v.patient) ?? new Set()).add(assign(v)));
      assert.ok([...sides.values()].every((s) => s.size === 1), `stratify=${stratify}: a patient on both sides`);
      const test = [...sides.values()].filter((s) => s.has('test')).length;
      assert.ok(test >= 8 && test <= 28, `stratify=${stratify}: ${test} of 60 patients held out`);
    }
  });

  it('the tracker counts records and patients per side, once per record even when asked twice', () => {
    const tracker = createSplitTracker({ seed: 5, testFraction: 0.3 });
    const visits = Array.from({ length: 40 }, (_, i) => ({ id: `v${i}`, patient: `p${i % 10}`, diagnosis: 'dx' }));
    for (const v of visits) assert.equal(tracker.part(v), tracker.part(v));
    const s = tracker.summary();
    assert.equal(s.unit, 'patient');
    assert.equal(s.train.records + s.test.records, 40);
    assert.equal(s.train.patients + s.test.patients, 10);
    assert.equal(s.test.records, s.test.patients * 4);
    assert.equal(tracker.patientDigests('train').length, s.train.patients);
    assert.ok(tracker.patientDigests('train').every((d) => /^[0-9a-f]{24}$/.test(d) && d !== 'p1'));
    assert.notEqual(patientDigest(5, 'p1'), patientDigest(6, 'p1'));
    const loose = createSplitTracker({ seed: 5, testFraction: 0.3 });
    for (const r of sample.slice(0, 100)) loose.part(r);
    assert.deepEqual([loose.summary().unit, loose.summary().train.patients + loose.summary().test.patients], ['record', 100]);
    const mixed = createSplitTracker({ seed: 5, testFraction: 0.3 });
    mixed.part({ id: 'a', diagnosis: 'x', patient: 'p' });
    mixed.part({ id: 'b', diagnosis: 'x' });
    assert.equal(mixed.summary().unit, 'mixed');
  });

  it('a record without a patient splits as before: by its id', () => {
    const assign = createSplitAssigner({ seed: 1, testFraction: 0.4 });
    const byId = splitFilter({ seed: 1, testFraction: 0.4, part: 'test' });
    assert.deepEqual(sample.filter((r) => assign({ id: r.id, diagnosis: r.diagnosis, patient: null }) === 'test').map((r) => r.id), sample.filter(byId).map((r) => r.id));
  });

  it('rejects bad options', () => {
    assert.throws(() => splitFilter({ seed: 1, testFraction: 1, part: 'test' }), InputError);
    assert.throws(() => splitFilter({ seed: 1.5, testFraction: 0.3, part: 'test' }), InputError);
  });

  it('writes a DDXPlus split readable as two DDXPlus sources, matching splitFilter', async () => {
    const opts = { seed: 7, testFraction: 0.3 };
    const report = await writeSplit(parseSourceSpec('ddxplus:datasets/ddxplus'), join(out, 'ddx'), opts);
    const train = await collect(`ddxplus:${report.dirs.train}`);
    const test = await collect(`ddxplus:${report.dirs.test}`);
    assert.deepEqual([train.length, test.length, report.notCopied], [report.train, report.test, 0]);
    const expectedTest = sample.filter(splitFilter({ ...opts, part: 'test' }));
    assert.deepEqual(test.map((r) => r.text), expectedTest.map((r) => r.text));
    assert.equal(train.length + test.length, sample.length);
    assert.ok(test.every((r) => r.id.startsWith('ddxplus:patients-test.csv:')) && train.every((r) => r.id.startsWith('ddxplus:patients-train.csv:')));
  });

  it('splits a CSV source by its id column, keeping ids and header', async () => {
    const dir = join(out, 'csv-in');
    await rm(dir, { recursive: true, force: true });
    await writeFile(join(out, 'm.json'), JSON.stringify({ id: 'pid', diagnosis: 'dx', manifestations: ['notes'] }));
    const rows = Array.from({ length: 200 }, (_, i) => `p${i},D${i % 5},"cough; no fever, x${i}"`);
    await writeFile(join(out, 'ehr.csv'), `pid,dx,notes\n${rows.join('\n')}\n`);
    const report = await writeSplit(parseSourceSpec(`csv:${join(out, 'ehr.csv')}`, { mapping: join(out, 'm.json') }), join(out, 'csv'), { seed: 1, testFraction: 0.5 });
    const test = await collect(`csv:${join(report.dirs.test, 'ehr-test.csv')}`, join(out, 'm.json'));
    const train = await collect(`csv:${join(report.dirs.train, 'ehr-train.csv')}`, join(out, 'm.json'));
    assert.equal(test.length + train.length, 200);
    const original = await collect(`csv:${join(out, 'ehr.csv')}`, join(out, 'm.json'));
    const expected = original.filter(splitFilter({ seed: 1, testFraction: 0.5, part: 'test' }));
    assert.deepEqual(test.map((r) => [r.id.split(':')[2], r.text]), expected.map((r) => [r.id.split(':')[2], r.text]));
  });
});
