import type { Finding, NormalizedRecord, RecordNote } from '../../domain/record.js';
import { err, ok, type Result } from '../../result.js';
import type { RowProblem } from '../row-issues.js';
import { splitFreeText } from './free-text.js';
import type { CodedField, NoteColumn, SourceMapping } from './mapping.js';

export interface MappedRowContext {
  /** e.g. "csv:visits.csv" — the record id is `<idPrefix>:<local id>`. */
  idPrefix: string;
  rowNumber: number;
  location: string;
}

const wrongType = (column: string, expected: string, v: unknown): Result<never, RowProblem> =>
  err({ category: 'wrong-type', reason: `column ${column}: expected ${expected}, got ${Array.isArray(v) ? 'array' : typeof v}` });

/** A scalar cell as trimmed text; null when missing or empty (typed sources: numbers allowed). */
function cell(row: Record<string, unknown>, column: string, allowed: ReadonlyArray<'string' | 'number' | 'boolean'>): Result<string | null, RowProblem> {
  const v = row[column];
  if (v === null || v === undefined) return ok(null);
  if (typeof v === 'bigint' && allowed.includes('number')) return ok(v.toString());
  if (!allowed.includes(typeof v as 'string')) return wrongType(column, allowed.join(' or '), v);
  const s = String(v).trim();
  return ok(s === '' ? null : s);
}

function parseAge(row: Record<string, unknown>, column: string | undefined): Result<number | null, RowProblem> {
  if (column === undefined) return ok(null);
  const s = cell(row, column, ['string', 'number']);
  if (!s.ok) return s;
  if (s.value === null) return ok(null);
  const n = Number(s.value);
  return Number.isFinite(n) && n >= 0 && n < 150 ? ok(Math.floor(n)) : err({ category: 'bad-age', reason: `column ${column}: not a valid age` });
}

const SEX: Readonly<Record<string, 'M' | 'F'>> = { M: 'M', MALE: 'M', F: 'F', FEMALE: 'F' };

function parseSex(row: Record<string, unknown>, column: string | undefined): Result<'M' | 'F' | null, RowProblem> {
  if (column === undefined) return ok(null);
  const s = cell(row, column, ['string']);
  if (!s.ok) return s;
  // Values other than male/female (unknown, other) are recorded as unknown, not as a bad row.
  return ok(s.value === null ? null : (SEX[s.value.toUpperCase()] ?? null));
}

function codedFindings(row: Record<string, unknown>, f: CodedField): Result<Finding[], RowProblem> {
  const raw = cell(row, f.column, ['string', 'number', 'boolean']);
  if (!raw.ok) return raw;
  if (raw.value === null) return ok([]);
  const values = f.separator === undefined ? [raw.value] : raw.value.split(f.separator).map((v) => v.trim()).filter((v) => v !== '');
  const absent = new Set((f.absentValues ?? ['no', 'false', 'n', 'absent', 'negative', 'none']).map((v) => v.toLowerCase()));
  const label = f.label ?? f.question ?? f.column;
  const out: Finding[] = [];
  for (const value of values) {
    const valueText = f.values === undefined ? value : f.values[value];
    if (valueText === undefined) return err({ category: 'unknown-value-code', reason: `column ${f.column}: value not in the mapping's dictionary` });
    out.push({
      text: `${label}: ${valueText}`,
      polarity: absent.has(valueText.toLowerCase()) || absent.has(value.toLowerCase()) ? 'absent' : 'present',
      code: f.code ?? f.column,
      valueCode: value,
      question: f.question ?? null,
      valueText,
      antecedent: f.antecedent ?? null,
    });
  }
  return ok(out);
}

function freeTextFindings(row: Record<string, unknown>, column: string, antecedent: boolean | null): Result<Finding[], RowProblem> {
  const v = row[column];
  // JSONL may hold a list of manifestations; each item is split like a cell.
  if (Array.isArray(v)) {
    if (!v.every((x) => typeof x === 'string')) return wrongType(column, 'text or list of text', v);
    return ok(v.flatMap((x: string) => splitFreeText(x, antecedent)));
  }
  const s = cell(row, column, ['string']);
  if (!s.ok) return s;
  return ok(s.value === null ? [] : splitFreeText(s.value, antecedent));
}

/**
 * A note column's text, whole and as written (a JSONL / SQL list is several notes); blank
 * values are no note. Never split into findings and never put in the record's text.
 */
function columnNotes(row: Record<string, unknown>, spec: NoteColumn): Result<RecordNote[], RowProblem> {
  const { column, title } = typeof spec === 'string' ? { column: spec, title: undefined } : spec;
  const v = row[column];
  if (v === null || v === undefined) return ok([]);
  const texts = Array.isArray(v) ? v : [v];
  if (!texts.every((x) => x === null || typeof x === 'string')) return wrongType(column, 'text or list of text', v);
  return ok(texts.filter((x): x is string => x !== null && x.trim() !== '').map((text) => ({ origin: `column ${column}`, title: title ?? null, text })));
}

/** Applies a mapping to one row (CSV strings, JSON values or SQL values) to get a NormalizedRecord. */
export function mapRow(row: Record<string, unknown>, m: SourceMapping, ctx: MappedRowContext): Result<NormalizedRecord, RowProblem> {
  const diagnosis = cell(row, m.diagnosis, ['string']);
  if (!diagnosis.ok) return diagnosis;
  if (diagnosis.value === null) return err({ category: 'missing-diagnosis', reason: `column ${m.diagnosis} is empty` });
  const localId = m.id === undefined ? ok(String(ctx.rowNumber)) : cell(row, m.id, ['string', 'number']);
  if (!localId.ok) return localId;
  if (localId.value === null) return err({ category: 'missing-id', reason: `column ${m.id} is empty` });
  const patient = m.patient === undefined ? ok(null) : cell(row, m.patient, ['string', 'number']);
  if (!patient.ok) return patient;
  if (m.patient !== undefined && patient.value === null) return err({ category: 'missing-patient', reason: `column ${m.patient} is empty` });
  const icd10 = m.icd10 === undefined ? ok(null) : cell(row, m.icd10, ['string']);
  if (!icd10.ok) return icd10;
  const initial = m.initialFinding === undefined ? ok(null) : cell(row, m.initialFinding, ['string', 'number']);
  if (!initial.ok) return initial;
  const age = parseAge(row, m.age);
  if (!age.ok) return age;
  const sex = parseSex(row, m.sex);
  if (!sex.ok) return sex;
  const findings: Finding[] = [];
  const lines = [`age: ${age.value ?? 'unknown'}`, `sex: ${sex.value === 'M' ? 'male' : sex.value === 'F' ? 'female' : 'unknown'}`];
  for (const col of m.manifestations) {
    const spec = typeof col === 'string' ? { column: col, antecedent: undefined } : col;
    const fs = freeTextFindings(row, spec.column, spec.antecedent ?? null);
    if (!fs.ok) return fs;
    findings.push(...fs.value);
    lines.push(...fs.value.map((f) => f.text));
  }
  for (const field of m.coded) {
    const fs = codedFindings(row, field);
    if (!fs.ok) return fs;
    findings.push(...fs.value);
    // Values of one multi-valued field share a line, as DDXPlus multi-choice answers do.
    if (fs.value.length > 0) lines.push(`${field.label ?? field.question ?? field.column}: ${fs.value.map((f) => f.valueText).join(', ')}`);
  }
  const notes: RecordNote[] = [];
  for (const spec of m.notes) {
    const ns = columnNotes(row, spec);
    if (!ns.ok) return ns;
    notes.push(...ns.value);
  }
  return ok({
    id: `${ctx.idPrefix}:${localId.value}`,
    // Only a mapped patient column gives the field, so other mappings give the records they always did.
    ...(patient.value !== null ? { patient: `${ctx.idPrefix}:patient:${String(patient.value).trim()}` } : {}),
    diagnosis: diagnosis.value,
    icd10: icd10.value?.toUpperCase() ?? null,
    age: age.value,
    sex: sex.value,
    findings,
    initialFindingCode: initial.value,
    text: lines.join('\n'),
    location: ctx.location,
    differential: null,
    // Only records with notes carry the field, so mappings without notes give the records they always did.
    ...(notes.length > 0 ? { notes } : {}),
  });
}
