import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { stringify, type Stringifier } from 'csv-stringify';
import { InputError } from '../errors.js';
import { csvRows } from './csv-rows.js';
import { DDXPLUS_COLUMNS, ddxplusRecordId } from './ddxplus/ddxplus-source.js';
import { CONDITIONS_FILE, EVIDENCES_FILE } from './ddxplus/dictionary.js';
import { findPatientFiles, openPatientFile } from './ddxplus/patient-files.js';
import { createSplitAssigner, type SplitOptions, type SplitPart } from './split.js';
import { csvFileRows, jsonlFileRows } from './tabular/file-rows.js';
import { loadMapping } from './tabular/mapping.js';
import type { SkippedRow, SourceSpec } from './types.js';

export interface SplitReport {
  train: number;
  test: number;
  /** Rows the reader could not decode (malformed CSV, bad JSON): not copied to either part. */
  notCopied: number;
  examples: SkippedRow[];
  /** The two directories written, each readable with the same source kind as the input. */
  dirs: Record<SplitPart, string>;
}

/** A CSV (or JSONL) part being written; respects back-pressure so memory stays flat. */
class PartWriter {
  private readonly file: WriteStream;
  private readonly csv: Stringifier | null;
  constructor(path: string, format: 'csv' | 'jsonl', columns: readonly string[] | null) {
    this.file = createWriteStream(path);
    this.csv = format === 'csv' ? stringify({ header: true, columns: columns ? [...columns] : undefined }) : null;
    this.csv?.pipe(this.file);
  }
  async write(row: Record<string, unknown>): Promise<void> {
    const ok = this.csv ? this.csv.write(row) : this.file.write(`${JSON.stringify(row)}\n`);
    if (!ok) await once(this.csv ?? this.file, 'drain');
  }
  async end(): Promise<void> {
    if (this.csv) this.csv.end();
    else this.file.end();
    await once(this.file, 'close');
  }
}

/** Writes a deterministic patient-level split of a source as two sources of the same kind. */
export async function writeSplit(spec: SourceSpec, outDir: string, opts: SplitOptions): Promise<SplitReport> {
  const assign = createSplitAssigner(opts);
  const dirs = { train: join(outDir, 'train'), test: join(outDir, 'test') };
  const report: SplitReport = { train: 0, test: 0, notCopied: 0, examples: [], dirs };
  await Promise.all([mkdir(dirs.train, { recursive: true }), mkdir(dirs.test, { recursive: true })]);
  const badRow = (location: string, reason: string): void => {
    report.notCopied++;
    if (report.examples.length < 20) report.examples.push({ location, reason });
  };
  if (spec.kind === 'ddxplus') {
    for (const f of [EVIDENCES_FILE, CONDITIONS_FILE]) for (const p of ['train', 'test'] as const) await copyFile(join(spec.dir, f), join(dirs[p], f));
    const writers = { train: new PartWriter(join(dirs.train, 'patients-train.csv'), 'csv', DDXPLUS_COLUMNS), test: new PartWriter(join(dirs.test, 'patients-test.csv'), 'csv', DDXPLUS_COLUMNS) };
    for (const file of await findPatientFiles(spec.dir)) {
      for await (const item of csvRows(await openPatientFile(file))) {
        if (item.kind === 'bad') {
          badRow(`${file.name}:${item.line}`, item.reason);
          continue;
        }
        const part = assign({ id: ddxplusRecordId(file.name, item.rowNumber), diagnosis: item.row.PATHOLOGY ?? '' });
        report[part]++;
        await writers[part].write(item.row);
      }
    }
    await Promise.all([writers.train.end(), writers.test.end()]);
    return report;
  }
  if (spec.kind === 'postgres' || spec.kind === 'omop' || spec.kind === 'fhir') {
    throw new InputError(`split writes files, and a ${spec.kind} source is not one: build on it with --test-fraction/--seed, then \`dxgraph eval --test\` on the same source evaluates the held-out part (docs/eval.md)`);
  }
  const mapping = await loadMapping(spec.mappingPath);
  const name = basename(spec.path);
  const stem = basename(spec.path, extname(spec.path));
  const rows = spec.kind === 'csv' ? csvFileRows : jsonlFileRows;
  let writers: Record<SplitPart, PartWriter> | null = null;
  for await (const item of rows(spec.path, name)) {
    if (item.kind === 'bad') {
      badRow(item.location, item.problem.reason);
      continue;
    }
    // Same local id as the record the source would emit (id column, else row number).
    const localId = mapping.id === undefined ? String(item.rowNumber) : String(item.row[mapping.id] ?? '').trim();
    // And the same patient key (a mapped patient column): all of a patient's rows go to one part.
    const patient = mapping.patient === undefined ? null : String(item.row[mapping.patient] ?? '').trim() || null;
    const part = assign({ id: `${spec.kind}:${name}:${localId}`, diagnosis: String(item.row[mapping.diagnosis] ?? ''), patient: patient === null ? null : `${spec.kind}:${name}:patient:${patient}` });
    const columns = spec.kind === 'csv' ? Object.keys(item.row) : null;
    writers ??= {
      train: new PartWriter(join(dirs.train, `${stem}-train${extname(spec.path)}`), spec.kind, columns),
      test: new PartWriter(join(dirs.test, `${stem}-test${extname(spec.path)}`), spec.kind, columns),
    };
    report[part]++;
    await writers[part].write(item.row);
  }
  if (writers) await Promise.all([writers.train.end(), writers.test.end()]);
  return report;
}
