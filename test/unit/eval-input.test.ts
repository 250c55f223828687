import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildManifest } from '../../src/domain/artifacts.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { ArtifactError, InputError } from '../../src/errors.js';
import { readEvalInput } from '../../src/eval/eval-input.js';
import { readIndexedRecords } from '../../src/eval/indexed-records-file.js';
import { indexedRecords, LeakageError } from '../../src/eval/leakage.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';

/**
 * What `dxgraph eval` reads before it opens the KG (issue 49): the build's record rows for the
 * leakage check, and a refusal that needs nothing else (no Neo4j, index or model is given here).
 */
describe('eval input: the leakage check before the KG is opened', () => {
  let dir: string;
  const manifest: BuildManifest = {
    buildId: 'kg-1', source: 'csv:elsewhere.csv', embedder: 'hashed', embeddingDim: 2,
    recordIndex: { kind: 'flat', size: 2, file: 'records.faiss', rows: 'records.jsonl' }, featureIndex: { size: 0, file: 'features.faiss', ids: 'features.ids' }, recordIdsFile: 'records.ids', createdAt: '',
  };
  const rows = (xs: { id: string; diagnosis: string; text: string }[]) => xs.map((r) => JSON.stringify({ ...r, diseaseId: null })).join('\n');
  const build = (lines: string) => {
    mkdirSync(join(dir, 'data', 'builds', 'kg-1'), { recursive: true });
    writeFileSync(join(dir, 'data', 'current'), 'kg-1\n');
    writeFileSync(join(dir, 'data', 'builds', 'kg-1', 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(join(dir, 'data', 'builds', 'kg-1', 'records.jsonl'), `${lines}\n`);
  };
  // A test source of two visits (jsonl + mapping), read as the CLI reads it.
  const spec = () => parseSourceSpec(`jsonl:${join(dir, 'visits.jsonl')}`, { mapping: join(dir, 'mapping.json') });
  const read = async (): Promise<NormalizedRecord[]> => {
    const src = await openSource(spec(), { strict: true });
    const out: NormalizedRecord[] = [];
    for await (const r of src.records()) out.push(r);
    await src.close();
    return out;
  };
  const opts = () => ({ strict: true, limit: null, seed: 1, dataDir: join(dir, 'data'), split: { testFraction: null, seed: null }, allowContentDuplicates: false, description: 'visits' });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'eval-input-'));
    writeFileSync(join(dir, 'mapping.json'), JSON.stringify({ id: 'id', diagnosis: 'dx', age: 'age', sex: 'sex', manifestations: ['findings'] }));
    writeFileSync(join(dir, 'visits.jsonl'), [
      { id: 'v1', dx: 'Pneumonia', age: 61, sex: 'M', findings: 'productive cough; fever' },
      { id: 'v2', dx: 'Asthma', age: 24, sex: 'F', findings: 'wheezing; night cough' },
    ].map((x) => JSON.stringify(x)).join('\n'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the ids and content fingerprints the query service\'s rows would give, and names a corrupt line', async () => {
    const indexed = [{ id: 'a', diagnosis: 'Flu', text: 'age: 3\nfever' }, { id: 'b', diagnosis: 'Cold', text: 'sneezing\nage: 40' }];
    build(rows(indexed));
    assert.deepEqual(await readIndexedRecords(join(dir, 'data'), manifest), indexedRecords(indexed));
    build(`${rows(indexed.slice(0, 1))}\n{"id": "b", "diagnosis": 3}`);
    await assert.rejects(readIndexedRecords(join(dir, 'data'), manifest), (e: unknown) => e instanceof ArtifactError && /records\.jsonl:2 is corrupt/.test(e.message));
    await assert.rejects(readIndexedRecords(join(dir, 'data'), { ...manifest, buildId: 'kg-gone' }), (e: unknown) => e instanceof ArtifactError && /missing or unreadable/.test(e.message));
  });

  it('refuses a test record the build indexed (by id, or by content) from the rows alone, and passes a clean set on', async () => {
    const visits = await read();
    assert.equal(visits.length, 2);
    const v1 = visits[0]!;
    build(rows([{ id: v1.id, diagnosis: 'Other', text: 'something else' }]));
    await assert.rejects(readEvalInput(spec(), opts()), (e: unknown) => e instanceof LeakageError && e.idOverlap === 1 && /1 of 2 test records have their id/.test(e.message));
    // The same visit under another id (another file): its content.
    build(rows([{ id: 'train.jsonl:7', diagnosis: v1.diagnosis, text: v1.text }]));
    await assert.rejects(readEvalInput(spec(), opts()), (e: unknown) => e instanceof LeakageError && e.contentOverlap === 1 && e.idOverlap === 0);
    const allowed = await readEvalInput(spec(), { ...opts(), allowContentDuplicates: true });
    assert.deepEqual([allowed.leakage.contentOverlap, allowed.test.records.length, allowed.manifest.buildId], [1, 2, 'kg-1']);
    build(rows([{ id: 'train.jsonl:7', diagnosis: 'Other', text: 'something else' }]));
    const clean = await readEvalInput(spec(), opts());
    assert.deepEqual([clean.leakage.tested, clean.leakage.idOverlap, clean.leakage.contentOverlap, clean.test.heldOut], [2, 0, 0, null]);
  });

  it('an empty test set is refused before anything is opened, and so is a data dir without a build', async () => {
    build(rows([]));
    writeFileSync(join(dir, 'visits.jsonl'), '');
    await assert.rejects(readEvalInput(spec(), opts()), (e: unknown) => e instanceof InputError && /the test source visits yielded no records/.test(e.message));
    rmSync(join(dir, 'data', 'current'));
    await assert.rejects(readEvalInput(spec(), opts()), (e: unknown) => e instanceof ArtifactError && /no current build/.test(e.message));
  });
});
