import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { InputError } from '../../src/errors.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { writeSplit } from '../../src/sources/split-files.js';
import { createSplitAssigner, splitFilter } from '../../src/sources/split.js';

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
