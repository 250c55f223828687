import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import pg from 'pg';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { SourceRowError } from '../../src/errors.js';
import { loadDdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';
import { openPostgresSource } from '../../src/sources/postgres/postgres-source.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { collectRecords } from '../support/cli.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

const N = 300;
const COLUMNS = ['patient_id', 'diagnosis', 'icd10', 'age', 'sex', 'initial_evidence', 'symptoms', 'history', 'pain_sites'];

const collect = collectRecords;

/** Everything but the source-qualified part of the id and the location must match. */
const comparable = (r: NormalizedRecord) => ({ ...r, id: r.id.split(':').pop(), location: null });

describe('PostgreSQL source (real server on loopback)', function () {
  this.timeout(180_000);
  let server: TestPostgres;
  let dir: string;
  let mappingPath: string;

  before(async () => {
    server = await startTestPostgres();
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-pgtest-'));
    // A hospital-style export derived from the DDXPlus sample: free text, history, coded pain sites.
    const dict = await loadDdxplusDictionary('datasets/ddxplus');
    const sample = await collect(await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: true }));
    const rows = sample.slice(0, N).map((r, i) => [
      `p${i + 1}`, r.diagnosis, r.icd10, i % 10 === 3 ? null : r.age, i % 7 === 2 ? null : r.sex, r.initialFindingCode,
      r.findings.filter((f) => !f.antecedent && f.code !== 'E_55').map((f) => f.text).join('; ') || null,
      r.findings.filter((f) => f.antecedent).map((f) => f.text).join('; ') || null,
      r.findings.filter((f) => f.code === 'E_55').map((f) => f.valueCode).join('|') || null,
    ]);
    await writeFile(join(dir, 'visits.csv'), stringify([COLUMNS, ...rows]));
    const painSites = Object.fromEntries(Object.entries(dict.evidences.get('E_55')?.value_meaning ?? {}).map(([k, v]) => [k, v.en]));
    mappingPath = join(dir, 'mapping.json');
    await writeFile(mappingPath, JSON.stringify({
      id: 'patient_id', diagnosis: 'diagnosis', icd10: 'icd10', age: 'age', sex: 'sex', initialFinding: 'initial_evidence',
      manifestations: ['symptoms', { column: 'history', antecedent: true }],
      coded: [{ column: 'pain_sites', code: 'E_55', question: 'Do you feel pain somewhere?', label: 'pain location', values: painSites, separator: '|' }],
    }));
    const client = new pg.Client(server.url);
    await client.connect();
    await client.query(`CREATE TABLE ehr_visits (row_no serial PRIMARY KEY, patient_id text NOT NULL, diagnosis text, icd10 text,
      age integer, sex text, initial_evidence text, symptoms text, history text, pain_sites text)`);
    for (let i = 0; i < rows.length; i += 50) {
      const batch = rows.slice(i, i + 50);
      const params = batch.flat();
      const tuples = batch.map((_, b) => `(${COLUMNS.map((__, c) => `$${b * COLUMNS.length + c + 1}`).join(', ')})`);
      await client.query(`INSERT INTO ehr_visits (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, params);
    }
    await client.end();
    await writeFile(join(dir, 'visits.sql'), `SELECT ${COLUMNS.join(', ')} FROM ehr_visits ORDER BY row_no`);
  });

  after(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('yields the same records as the CSV path for the same data, streaming in batches', async () => {
    const fromCsv = await collect(await openSource(parseSourceSpec(`csv:${join(dir, 'visits.csv')}`, { mapping: mappingPath }), { strict: true }));
    const pgSource = openPostgresSource({ url: server.url, queryFile: join(dir, 'visits.sql'), mappingPath }, { strict: true, batchSize: 64 });
    const fromPg = await collect(pgSource);
    assert.equal(fromCsv.length, N);
    assert.equal(fromPg.length, N);
    assert.deepEqual(fromPg.map(comparable), fromCsv.map(comparable));
    assert.equal(fromPg[0]?.id, 'postgres:visits:p1');
    assert.equal(fromPg[0]?.location, 'query-row 1');
    assert.ok(fromPg.some((r) => r.age === null) && fromPg.some((r) => r.sex === null));
    assert.ok(fromPg.some((r) => r.findings.some((f) => f.code === 'E_55' && f.valueCode?.startsWith('V_'))));
    assert.deepEqual(pgSource.summary(), { rowsRead: N, recordsEmitted: N, skipped: 0, skippedByReason: {}, examples: [] });
  });

  it('reads a mapped table without a query file', async () => {
    const m = join(dir, 'table-mapping.json');
    await writeFile(m, JSON.stringify({ table: 'ehr_visits', id: 'patient_id', diagnosis: 'diagnosis', manifestations: ['symptoms'] }));
    const recs = await collect(await openSource(parseSourceSpec(`postgres:${server.url}`, { mapping: m }), { strict: true }));
    assert.equal(recs.length, N);
    assert.ok(recs.every((r) => r.id.startsWith('postgres:ehr_visits:p')));
  });

  it('reads note columns (text and text[]) whole into record.notes; a repeated id is a duplicate-id row, strict stops on it', async () => {
    const q = join(dir, 'notes.sql');
    await writeFile(q, `SELECT patient_id, diagnosis, 'Seen at 09:00. ' || coalesce(symptoms, '') AS hpi, ARRAY['Follow-up in one week.', NULL, 'Return if worse.'] AS plans, row_no
      FROM ehr_visits WHERE row_no <= 4
      UNION ALL SELECT patient_id, diagnosis, NULL, NULL, 100 + row_no FROM ehr_visits WHERE row_no IN (2, 3)
      ORDER BY row_no`);
    const m = join(dir, 'notes-mapping.json');
    await writeFile(m, JSON.stringify({ id: 'patient_id', diagnosis: 'diagnosis', notes: ['hpi', { column: 'plans', title: 'Plan' }] }));
    const src = openPostgresSource({ url: server.url, queryFile: q, mappingPath: m }, { strict: false });
    const recs = await collect(src);
    assert.deepEqual(recs.map((r) => r.id), ['postgres:notes:p1', 'postgres:notes:p2', 'postgres:notes:p3', 'postgres:notes:p4']);
    const r1 = recs[0]!;
    assert.equal(r1.notes?.[0]?.origin, 'column hpi');
    assert.match(r1.notes?.[0]?.text ?? '', /^Seen at 09:00\. /);
    assert.deepEqual(r1.notes?.slice(1), [{ origin: 'column plans', title: 'Plan', text: 'Follow-up in one week.' }, { origin: 'column plans', title: 'Plan', text: 'Return if worse.' }],
      'a text[] value is several notes (a NULL element is none)');
    assert.equal(r1.text, 'age: unknown\nsex: unknown', 'the record text carries no note');
    const s = src.summary();
    assert.deepEqual(s.skippedByReason, { 'duplicate-id': 2 });
    assert.deepEqual(s.examples.map((e) => e.location), ['query-row 5', 'query-row 6']);
    const strict = openPostgresSource({ url: server.url, queryFile: q, mappingPath: m }, { strict: true });
    await assert.rejects(collect(strict), (e: unknown) => e instanceof SourceRowError && e.location === 'query-row 5' && /duplicate id postgres:notes:p2/.test(e.message));
  });

  it('reports rows with wrong SQL types or no diagnosis by query row, and stops on them in strict mode', async () => {
    const q = join(dir, 'bad.sql');
    await writeFile(q, `SELECT row_no AS patient_id, CASE WHEN row_no % 100 = 5 THEN NULL ELSE diagnosis END AS diagnosis, age,
      CASE WHEN row_no % 100 = 9 THEN now() END AS sex FROM ehr_visits ORDER BY row_no`);
    const m = join(dir, 'bad-mapping.json');
    await writeFile(m, JSON.stringify({ id: 'patient_id', diagnosis: 'diagnosis', age: 'age', sex: 'sex' }));
    const src = openPostgresSource({ url: server.url, queryFile: q, mappingPath: m }, { strict: false, batchSize: 100 });
    const recs = await collect(src);
    const s = src.summary();
    assert.deepEqual([s.rowsRead, s.recordsEmitted, s.skipped], [N, N - 6, 6]);
    assert.equal(recs.length, N - 6);
    assert.deepEqual(s.skippedByReason, { 'missing-diagnosis': 3, 'wrong-type': 3 });
    assert.deepEqual(s.examples.map((e) => e.location), ['query-row 5', 'query-row 9', 'query-row 105', 'query-row 109', 'query-row 205', 'query-row 209']);
    assert.match(s.examples[1]?.reason ?? '', /column sex: expected string, got object/);
    const strict = openPostgresSource({ url: server.url, queryFile: q, mappingPath: m }, { strict: true });
    await assert.rejects(collect(strict), (e: unknown) => e instanceof SourceRowError && e.location === 'query-row 5');
  });
});
