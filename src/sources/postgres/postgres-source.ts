import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { InputError, ServiceUnavailableError } from '../../errors.js';
import { redactUrl } from '../redact-url.js';
import type { SourceOptions } from '../types.js';
import { loadMapping, mappedColumns, mappingSchema, type SourceMapping } from '../tabular/mapping.js';
import { MappedSource, type RawRowItem } from '../tabular/mapped-source.js';

/** Without --mapping, the query is expected to name its columns like this (a missing column reads as empty). */
export const DEFAULT_QUERY_MAPPING: SourceMapping = mappingSchema.parse({
  id: 'id',
  diagnosis: 'diagnosis',
  icd10: 'icd10',
  age: 'age',
  sex: 'sex',
  initialFinding: 'initial_finding',
  manifestations: ['manifestations'],
  notes: ['notes'],
});

export interface PostgresSpec {
  url: string;
  queryFile: string | null;
  mappingPath: string | null;
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** SELECT of the mapped columns from the mapping's table (identifiers quoted, never values). */
export function tableQuery(m: SourceMapping): string {
  if (m.table === undefined) throw new InputError('a postgres source without --query-file needs "table" in its mapping', { field: 'mapping' });
  const table = m.table.split('.').map(quoteIdent).join('.');
  return `SELECT ${mappedColumns(m).map(quoteIdent).join(', ')} FROM ${table}`;
}

async function* queryRows(spec: PostgresSpec, mapping: SourceMapping, batchSize: number): AsyncGenerator<RawRowItem> {
  const sql = spec.queryFile !== null ? await readFile(spec.queryFile, 'utf8').catch((e: Error) => {
    throw new InputError(`cannot read query file ${spec.queryFile}: ${e.message}`, { field: 'query-file' });
  }) : tableQuery(mapping);
  const client = new pg.Client({ connectionString: spec.url });
  try {
    await client.connect();
  } catch (e) {
    throw new ServiceUnavailableError('postgres', `cannot connect to ${redactUrl(spec.url)}: ${(e as Error).message}`, { cause: e });
  }
  // A server-side cursor: only `batchSize` rows are in memory at a time, whatever the table size.
  const cursor = client.query(new Cursor<Record<string, unknown>>(sql));
  let rowNumber = 0;
  try {
    for (;;) {
      let batch: Record<string, unknown>[];
      try {
        batch = await cursor.read(batchSize);
      } catch (e) {
        throw new InputError(`query ${spec.queryFile ?? mapping.table} failed: ${(e as Error).message}`, { field: 'query-file', cause: e });
      }
      if (batch.length === 0) return;
      for (const row of batch) {
        rowNumber++;
        yield { kind: 'row', row, rowNumber, location: `query-row ${rowNumber}` };
      }
    }
  } finally {
    await cursor.close().catch(() => undefined); // the connection is closed next anyway
    await client.end();
  }
}

/**
 * A PostgreSQL query (or a mapped table) as a RecordSource. Rows go through the same mapping as
 * CSV/JSONL, which also checks their types. Ids: `postgres:<mapping name | query file | table>:<id>`.
 */
export function openPostgresSource(spec: PostgresSpec, opts: SourceOptions & { batchSize?: number }): MappedSource {
  const queryName = spec.queryFile !== null ? basename(spec.queryFile, extname(spec.queryFile)) : null;
  return new MappedSource(
    {
      description: `postgres:${redactUrl(spec.url)}`,
      idPrefix: (m) => `postgres:${m.name ?? queryName ?? m.table ?? 'query'}`,
      loadMapping: async () => (spec.mappingPath !== null ? loadMapping(spec.mappingPath) : DEFAULT_QUERY_MAPPING),
      rows: (m) => queryRows(spec, m, opts.batchSize ?? 500),
    },
    opts,
  );
}
