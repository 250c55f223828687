import pg from 'pg';
import Cursor from 'pg-cursor';
import type { NormalizedRecord } from '../../domain/record.js';
import { InputError, ServiceUnavailableError } from '../../errors.js';
import type { Tertiles } from '../binning/bins.js';
import { redactUrl } from '../redact-url.js';
import { RowTally } from '../row-issues.js';
import type { ImportSummary, RecordSource, SourceOptions } from '../types.js';
import { FactTally } from './fact-tally.js';
import type { OmopOptions } from './omop-options.js';
import { groupVisits, type OmopFactRow } from './omop-rows.js';
import { codedConceptsSql, factsWithoutVisitSql, noteTablesSql, numericCodesSql, synonymTableSql, tertilesSql, visitFactsSql, type NoteTables } from './omop-sql.js';
import { binConcepts } from '../binning/bin-concepts.js';
import type { VocabularyConcept } from '../../clinical-text/vocabulary.js';
import { conceptKey, visitToRecord } from './visit-to-record.js';

/**
 * An OMOP CDM v5.4 database as a RecordSource: one record per visit_occurrence. Two passes,
 * both in PostgreSQL: the tertile cut points of numeric values without a reference range,
 * then one ordered cursor over every visit's facts, grouped one visit at a time, so memory
 * stays at one visit plus a cursor batch whatever the tables' size.
 */
export class OmopSource implements RecordSource {
  readonly description: string;
  private rows = new RowTally(false);
  private facts = new FactTally(false);
  private readonly idPrefix: string;

  constructor(
    private readonly opts: OmopOptions,
    private readonly sourceOpts: SourceOptions & { batchSize?: number },
  ) {
    const db = new URL(opts.url).pathname.replace(/^\//, '') || 'omop';
    this.description = `omop:${redactUrl(opts.url)} (schema ${opts.schema}, label ${opts.labelRule})`;
    this.idPrefix = `omop:${db}`;
  }

  async *records(): AsyncGenerator<NormalizedRecord> {
    this.rows = new RowTally(this.sourceOpts.strict);
    this.facts = new FactTally(this.sourceOpts.strict);
    const client = await this.connect();
    try {
      const tertiles = await this.tertiles(client);
      // note / note_nlp are read when the schema has them (an OHDSI CDM has them, possibly empty).
      const found = (await this.query<{ note: boolean; note_nlp: boolean }>(client, noteTablesSql, [this.opts.schema]))[0];
      const tables: NoteTables = { note: found?.note === true, noteNlp: found?.note_nlp === true };
      const noVisit = (await this.query<{ measurement: number; observation: number; note: number; note_nlp: number }>(client, factsWithoutVisitSql(this.opts.schema, tables), []))[0];
      for (const table of ['measurement', 'observation'] as const) {
        const n = noVisit?.[table] ?? 0;
        this.facts.skipMany(n, table, { category: 'fact-without-visit', reason: `${n} ${table} rows have no visit_occurrence_id` });
      }
      const notes = noVisit?.note ?? 0;
      this.facts.skipMany(notes, 'note', { category: 'note-without-visit', reason: `${notes} notes have no visit_occurrence_id and no visit of their person on their note_date` });
      const terms = noVisit?.note_nlp ?? 0;
      this.facts.skipMany(terms, 'note_nlp', { category: 'note-without-visit', reason: `${terms} note_nlp rows belong to no note or to a note without a visit` });
      const ctx = { idPrefix: this.idPrefix, labelRule: this.opts.labelRule, tertiles };
      for await (const item of groupVisits(this.cursorRows(client, visitFactsSql(this.opts.schema, tables)))) {
        if (item.kind === 'orphans') {
          this.facts.skipMany(item.count, `visit_occurrence ${item.visitId}`, { category: 'fact-of-unknown-visit', reason: `${item.count} facts name visit_occurrence_id ${item.visitId}, which has no visit row` });
          continue;
        }
        this.rows.read();
        const out = visitToRecord(item.facts, ctx);
        if (!out.ok) {
          this.rows.skip(item.facts.location, out.error);
          continue;
        }
        for (const p of [...item.problems, ...out.value.issues]) this.facts.skip(p.location, p.problem);
        this.rows.emit();
        yield out.value.record;
      }
    } finally {
      await client.end();
    }
  }

  /**
   * The CDM's own concepts a note may name (observations and conditions, with their synonyms), so
   * the build reads a note's "wheezing" as the SNOMED concept the facts carry (RecordSource); and
   * the bins of its numeric codes, so a note's "RR 24" is the visit's respiratory-rate bin.
   */
  async codedConcepts(): Promise<VocabularyConcept[]> {
    const client = await this.connect();
    try {
      const synonyms = (await this.query<{ present: boolean }>(client, synonymTableSql, [this.opts.schema]))[0]?.present === true;
      const rows = await this.query<{ vocabulary_id: string; concept_code: string; concept_name: string; synonyms: string[] | null }>(client, codedConceptsSql(this.opts.schema, synonyms), []);
      const numeric = await this.query<{ vocabulary_id: string; concept_code: string; concept_name: string; ranged: boolean; unit: string | null }>(client, numericCodesSql(this.opts.schema), []);
      const bins = binConcepts(numeric.map((r) => ({ key: conceptKey({ vocabulary: r.vocabulary_id, code: r.concept_code }), vocabulary: r.vocabulary_id, name: r.concept_name, ranged: r.ranged, unit: r.unit })), await this.tertiles(client));
      return [
        ...rows.map((r) => ({
          vocabulary: r.vocabulary_id, code: conceptKey({ vocabulary: r.vocabulary_id, code: r.concept_code }), label: r.concept_name,
          forms: [...new Set([r.concept_name, ...(r.synonyms ?? [])])], xrefs: [], parents: [],
        })),
        ...bins,
      ];
    } finally {
      await client.end();
    }
  }

  /** A connection of its own per pass; an unreachable server is a ServiceUnavailableError naming it (password redacted). */
  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.opts.url });
    try {
      await client.connect();
    } catch (e) {
      throw new ServiceUnavailableError('postgres', `cannot connect to ${redactUrl(this.opts.url)}: ${(e as Error).message}`, { cause: e });
    }
    // No JIT for this session (PostgreSQL 11+): the visit query's UNION of seven parts compiles
    // ~230 functions, and LLVM spent 8.3 s on them for a query that runs in 1.5 s without
    // (Synthea27Nj, 41k rows); its cost is index lookups and streaming, not expression evaluation.
    await this.query(client, `SELECT set_config('jit', 'off', false) FROM pg_settings WHERE name = 'jit'`, []);
    return client;
  }

  private async tertiles(client: pg.Client): Promise<Map<string, Tertiles>> {
    const rows = await this.query<{ vocabulary_id: string; concept_code: string; c1: number; c2: number }>(client, tertilesSql(this.opts.schema), [1 / 3, 2 / 3]);
    return new Map(rows.map((r) => [conceptKey({ vocabulary: r.vocabulary_id, code: r.concept_code }), { c1: r.c1, c2: r.c2 }]));
  }

  private async query<T>(client: pg.Client, sql: string, params: unknown[]): Promise<T[]> {
    try {
      return (await client.query(sql, params)).rows as T[];
    } catch (e) {
      throw new InputError(`OMOP query failed on schema ${this.opts.schema} (is it an OMOP CDM v5.4 schema with the vocabulary tables?): ${(e as Error).message}`, { field: 'source', cause: e });
    }
  }

  /** A server-side cursor: only batchSize rows are in memory at a time. */
  private async *cursorRows(client: pg.Client, sql: string): AsyncGenerator<OmopFactRow> {
    const cursor = client.query(new Cursor<OmopFactRow>(sql));
    const batchSize = this.sourceOpts.batchSize ?? 1000;
    try {
      for (;;) {
        let batch: OmopFactRow[];
        try {
          batch = await cursor.read(batchSize);
        } catch (e) {
          throw new InputError(`OMOP visit query failed on schema ${this.opts.schema}: ${(e as Error).message}`, { field: 'source', cause: e });
        }
        if (batch.length === 0) return;
        yield* batch;
      }
    } finally {
      await cursor.close().catch(() => undefined); // the connection is closed right after anyway
    }
  }

  summary(): ImportSummary {
    return { ...this.rows.summary(), factsSkipped: this.facts.summary() };
  }

  async close(): Promise<void> {
    // Each records() pass opens and ends its own connection: nothing is left open here.
  }
}
