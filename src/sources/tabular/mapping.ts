import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../../errors.js';

/** A free-text column whose pieces become findings; `antecedent` marks history/risk-factor columns. */
const manifestationColumn = z.union([
  z.string().min(1),
  z.object({ column: z.string().min(1), antecedent: z.boolean().optional() }).strict(),
]);

/**
 * A clinical-note column: its text goes to `record.notes` whole (never split into findings,
 * never into the record's text); `title` names the kind of note ("History of present illness").
 */
const noteColumn = z.union([
  z.string().min(1),
  z.object({ column: z.string().min(1), title: z.string().min(1).optional() }).strict(),
]);

/** A coded column: its value becomes one finding "label: value text" keeping the codes. */
const codedField = z
  .object({
    column: z.string().min(1),
    /** Source code of the question; defaults to the column name. */
    code: z.string().min(1).optional(),
    question: z.string().min(1).optional(),
    /** Short label used in the finding text; defaults to the question, then the column. */
    label: z.string().min(1).optional(),
    /** value code -> value text; when given, an unknown value is a malformed row. */
    values: z.record(z.string(), z.string()).optional(),
    /** Value texts that deny the question (finding kept with polarity "absent"). */
    absentValues: z.array(z.string()).optional(),
    /** Split a multi-valued cell (e.g. "|") into one finding per value. */
    separator: z.string().min(1).optional(),
    antecedent: z.boolean().optional(),
  })
  .strict();

export const mappingSchema = z
  .object({
    /** PostgreSQL: name used in record ids (`postgres:<name>:<id>`); defaults to the query file name or table. */
    name: z.string().min(1).optional(),
    /** Column holding a stable local id; without it the 1-based row number is used. */
    id: z.string().min(1).optional(),
    /**
     * Column holding the patient's key when a patient may have several rows (visits): a train/test
     * split keeps all of a patient's rows on one side. Without it each row is its own patient.
     */
    patient: z.string().min(1).optional(),
    diagnosis: z.string().min(1),
    icd10: z.string().min(1).optional(),
    age: z.string().min(1).optional(),
    sex: z.string().min(1).optional(),
    /** Column holding the chief complaint's code. */
    initialFinding: z.string().min(1).optional(),
    manifestations: z.array(manifestationColumn).default([]),
    coded: z.array(codedField).default([]),
    /** Clinical-note columns: read whole into record.notes (a JSONL / SQL list is several notes). */
    notes: z.array(noteColumn).default([]),
    /** PostgreSQL only, when no --query-file: the table to read (schema-qualified allowed). */
    table: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/).optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    // A note column split into phrase findings as well would put the raw note in the record's text.
    const phrases = new Set(m.manifestations.map(columnOf));
    m.notes.forEach((n, i) => {
      if (phrases.has(columnOf(n))) ctx.addIssue({ code: 'custom', path: ['notes', i], message: `column ${columnOf(n)} is also in manifestations: a column is either a note or manifestations` });
    });
  });

const columnOf = (c: string | { column: string }): string => (typeof c === 'string' ? c : c.column);

export type SourceMapping = z.infer<typeof mappingSchema>;
export type CodedField = z.infer<typeof codedField>;
export type NoteColumn = z.infer<typeof noteColumn>;

/** Reads and validates a mapping file; every problem names the file and the field. */
export async function loadMapping(path: string): Promise<SourceMapping> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new InputError(`cannot read mapping ${path}: ${(e as Error).message}`, { field: 'mapping', cause: e });
  }
  const parsed = mappingSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`mapping ${path}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`, { field: 'mapping' });
  }
  return parsed.data;
}

/** Every column a mapping reads (for building a SELECT and checking headers). */
export function mappedColumns(m: SourceMapping): string[] {
  const cols = [m.id, m.patient, m.diagnosis, m.icd10, m.age, m.sex, m.initialFinding, ...m.manifestations.map(columnOf), ...m.coded.map((c) => c.column), ...m.notes.map(columnOf)];
  return [...new Set(cols.filter((c): c is string => c !== undefined))];
}
