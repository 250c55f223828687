import type { NormalizedRecord } from '../../domain/record.js';
import { RowTally, type RowProblem } from '../row-issues.js';
import type { ImportSummary, RecordSource, SourceOptions } from '../types.js';
import type { SourceMapping } from './mapping.js';
import { mapRow } from './row-mapper.js';

/** One raw row from a file or a query, or a row the reader could not decode. */
export type RawRowItem =
  | { kind: 'row'; row: Record<string, unknown>; rowNumber: number; location: string }
  | { kind: 'bad'; rowNumber: number; location: string; problem: RowProblem };

export interface MappedSourceParts {
  description: string;
  /** e.g. "csv:visits.csv"; record ids are `<idPrefix>:<local id>`. */
  idPrefix: (mapping: SourceMapping) => string;
  /** Loaded lazily at the start of records(), so opening a source does no I/O. */
  loadMapping: () => Promise<SourceMapping>;
  /** A fresh pass over the raw rows (a file read or a query) for each records() call. */
  rows: (mapping: SourceMapping) => AsyncIterable<RawRowItem>;
  close?: () => Promise<void>;
}

/** CSV, JSONL and PostgreSQL share this: raw rows + a mapping -> records, with one tally. */
export class MappedSource implements RecordSource {
  readonly description: string;
  private tally: RowTally;

  constructor(
    private readonly parts: MappedSourceParts,
    private readonly opts: SourceOptions,
  ) {
    this.description = parts.description;
    this.tally = new RowTally(opts.strict);
  }

  async *records(): AsyncGenerator<NormalizedRecord> {
    this.tally = new RowTally(this.opts.strict);
    const mapping = await this.parts.loadMapping();
    const idPrefix = this.parts.idPrefix(mapping);
    // Ids of the records emitted so far, when the mapping names an id column (row numbers cannot
    // repeat): a repeated id is a bad row here, not a duplicate vector id at the index stage.
    const seen = mapping.id === undefined ? null : new Set<string>();
    for await (const item of this.parts.rows(mapping)) {
      this.tally.read();
      if (item.kind === 'bad') {
        this.tally.skip(item.location, item.problem);
        continue;
      }
      const rec = mapRow(item.row, mapping, { idPrefix, rowNumber: item.rowNumber, location: item.location });
      if (!rec.ok) {
        this.tally.skip(item.location, rec.error);
        continue;
      }
      if (seen !== null) {
        if (seen.has(rec.value.id)) {
          this.tally.skip(item.location, { category: 'duplicate-id', reason: `duplicate id ${rec.value.id}: column ${mapping.id} repeats the id of an earlier row (the first is kept)` });
          continue;
        }
        seen.add(rec.value.id);
      }
      this.tally.emit();
      yield rec.value;
    }
  }

  summary(): ImportSummary {
    return this.tally.summary();
  }

  async close(): Promise<void> {
    await this.parts.close?.();
  }
}
