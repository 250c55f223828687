import type { NormalizedRecord } from '../../domain/record.js';
import { InputError } from '../../errors.js';
import { csvRows } from '../csv-rows.js';
import { RowTally } from '../row-issues.js';
import type { DeclaredEvidence, DiseaseKnowledge, ImportSummary, RecordSource, SourceOptions } from '../types.js';
import { ddxplusKnowledge } from './disease-knowledge.js';
import { loadDdxplusDictionary, type DdxplusDictionary } from './dictionary.js';
import { findPatientFiles, openPatientFile, type PatientFile } from './patient-files.js';
import { ddxplusRowToRecord } from './row-to-record.js';

export const DDXPLUS_COLUMNS = ['AGE', 'DIFFERENTIAL_DIAGNOSIS', 'SEX', 'PATHOLOGY', 'EVIDENCES', 'INITIAL_EVIDENCE'] as const;

/** Stable, source-qualified record id: the file's name plus the 1-based data row number. */
export function ddxplusRecordId(fileName: string, rowNumber: number): string {
  return `ddxplus:${fileName}:${rowNumber}`;
}

/**
 * The DDXPlus release as a RecordSource: the two dictionaries (loaded once, small) and every
 * patient file of the directory, streamed row by row. Each call of records() re-reads the files.
 */
export class DdxplusSource implements RecordSource {
  readonly description: string;
  private tally: RowTally;
  /** The two dictionaries, read once per source (records() may be called again, and the build asks for the declared evidence too). */
  private dict: Promise<DdxplusDictionary> | null = null;

  constructor(
    private readonly dir: string,
    private readonly opts: SourceOptions & { files?: PatientFile[] },
  ) {
    this.description = `ddxplus:${dir}`;
    this.tally = new RowTally(opts.strict);
  }

  private dictionary(): Promise<DdxplusDictionary> {
    // A failed read is not kept: the next call tries again and reports its own error.
    this.dict ??= loadDdxplusDictionary(this.dir).catch((e: unknown) => {
      this.dict = null;
      throw e;
    });
    return this.dict;
  }

  async declaredEvidence(): Promise<DeclaredEvidence> {
    const dict = await this.dictionary();
    return (diagnosis) => dict.resolveCondition(diagnosis)?.evidenceCodes ?? null;
  }

  async diseaseKnowledge(): Promise<DiseaseKnowledge> {
    return ddxplusKnowledge(await this.dictionary());
  }

  async *records(): AsyncGenerator<NormalizedRecord> {
    this.tally = new RowTally(this.opts.strict);
    const dict = await this.dictionary();
    const files = this.opts.files ?? (await findPatientFiles(this.dir));
    for (const file of files) yield* this.fileRecords(file, dict);
  }

  private async *fileRecords(file: PatientFile, dict: DdxplusDictionary): AsyncGenerator<NormalizedRecord> {
    const stream = await openPatientFile(file);
    let headerChecked = false;
    try {
      for await (const item of csvRows(stream)) {
        if (!headerChecked && item.kind === 'row') {
          // A stray CSV in the directory would otherwise show up as thousands of "bad rows".
          const missing = DDXPLUS_COLUMNS.filter((c) => c !== 'DIFFERENTIAL_DIAGNOSIS' && !(c in item.row));
          if (missing.length > 0) throw new InputError(`${file.name} is not a DDXPlus patients file: missing column(s) ${missing.join(', ')}`);
          headerChecked = true;
        }
        this.tally.read();
        const location = `${file.name}:${item.line}`;
        if (item.kind === 'bad') {
          this.tally.skip(location, { category: 'malformed-csv', reason: item.reason });
          continue;
        }
        const rec = ddxplusRowToRecord(item.row, dict, { id: ddxplusRecordId(file.name, item.rowNumber), location });
        if (!rec.ok) {
          this.tally.skip(location, rec.error);
          continue;
        }
        this.tally.emit();
        yield rec.value;
      }
    } finally {
      stream.destroy();
    }
  }

  summary(): ImportSummary {
    return this.tally.summary();
  }

  async close(): Promise<void> {}
}
