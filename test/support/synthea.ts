import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const ZIP = join('datasets', 'omop-synthea27nj', 'Synthea27Nj_5.4.zip');
/** The CDM tables the OMOP source reads (note / note_nlp ship empty in this export). */
const TABLES = ['person', 'visit_occurrence', 'condition_occurrence', 'measurement', 'observation', 'concept', 'concept_relationship', 'note', 'note_nlp'];

/**
 * The OHDSI Synthea27Nj CDM 5.4 export (Apache-2.0, made by others; shipped in
 * datasets/omop-synthea27nj/ with its licence): DXGRAPH_SYNTHEA27NJ_ZIP, else the repo's copy
 * (or a `shared/` copy above the checkout). null when there is none.
 */
export function syntheaZip(): string | null {
  if (process.env.DXGRAPH_SYNTHEA27NJ_ZIP) return process.env.DXGRAPH_SYNTHEA27NJ_ZIP;
  for (let dir = ROOT; ; dir = dirname(dir)) {
    for (const candidate of [join(dir, ZIP), join(dir, 'shared', ZIP)]) if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Loads the export into `schema` of a real PostgreSQL as a hospital would: the CDM DDL the
 * project ships (datasets/omop-synthetic/ddl), each CSV copied by psql into a text staging
 * table named by its own header (the export's column order differs from the DDL's), then cast
 * into the CDM table column by column.
 */
export async function loadSynthea(url: string, zip: string, schema = 'synthea'): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'synthea-'));
  const client = new pg.Client(url);
  await client.connect();
  try {
    await run('unzip', ['-q', '-o', zip, ...TABLES.map((t) => `${t.toUpperCase()}.csv`), '-d', dir]);
    await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    await client.query(await readFile(join(ROOT, 'datasets/omop-synthetic/ddl/omop-cdm-5.4-subset.postgresql.sql'), 'utf8'));
    const stage = `${schema}_stage`;
    await client.query(`CREATE SCHEMA ${stage}`);
    for (const table of TABLES) {
      const file = join(dir, `${table.toUpperCase()}.csv`);
      const header = (await readFile(file, 'utf8')).split('\n', 1)[0]!.trim().split(',');
      await client.query(`CREATE TABLE ${stage}.${table} (${header.map((c) => `"${c}" text`).join(', ')})`);
      // psql's \copy reads the file client-side: the server (another OS user) need not see it.
      await run('psql', [url, '-q', '-v', 'ON_ERROR_STOP=1', '-c', `\\copy ${stage}.${table} FROM '${file}' WITH (FORMAT csv, HEADER true)`]);
      const { rows } = await client.query<{ column_name: string; data_type: string }>(
        'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2', [schema, table]);
      const types = new Map(rows.map((r) => [r.column_name, r.data_type]));
      const cols = header.filter((c) => types.has(c));
      await client.query(`INSERT INTO ${schema}.${table} (${cols.map((c) => `"${c}"`).join(', ')}) SELECT ${cols.map((c) => `NULLIF("${c}", '')::${types.get(c)}`).join(', ')} FROM ${stage}.${table}`);
    }
    await client.query(`DROP SCHEMA ${stage} CASCADE`);
  } finally {
    await client.end();
    await rm(dir, { recursive: true, force: true });
  }
}
