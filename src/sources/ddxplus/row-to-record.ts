import type { DifferentialEntry, Finding, NormalizedRecord } from '../../domain/record.js';
import { err, ok, type Result } from '../../result.js';
import { parsePythonList } from '../python-literal.js';
import type { RowProblem } from '../row-issues.js';
import type { DdxplusDictionary } from './dictionary.js';
import { parseEvidenceList } from './evidence-token.js';
import { renderFinding, renderRecordText } from './render.js';

/** One patient row in the official release column format; values may come typed (SQL) or as CSV strings. */
export type DdxplusRow = Record<string, unknown>;

export interface RowContext {
  /** Stable, source-qualified id of the row. */
  id: string;
  /** Human location for reports, e.g. "patients-dev.csv:17". */
  location: string;
}

const problem = (category: string, reason: string): Result<never, RowProblem> => err({ category, reason });

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
}

function parseAge(v: unknown): Result<number | null, RowProblem> {
  const s = text(v);
  if (s === null) return ok(null);
  const n = Number(s);
  return Number.isInteger(n) && n >= 0 && n < 150 ? ok(n) : problem('bad-age', `AGE is not a valid age`);
}

function parseSex(v: unknown): Result<'M' | 'F' | null, RowProblem> {
  const s = text(v)?.toUpperCase() ?? null;
  if (s === null) return ok(null);
  return s === 'M' || s === 'F' ? ok(s) : problem('bad-sex', `SEX is not M or F`);
}

function parseDifferential(v: unknown): Result<DifferentialEntry[] | null, RowProblem> {
  const s = text(v);
  if (s === null) return ok(null);
  const list = parsePythonList(s);
  if (!list.ok) return problem('unparseable-differential', `unparseable DIFFERENTIAL_DIAGNOSIS: ${list.error}`);
  const out: DifferentialEntry[] = [];
  for (const item of list.value) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'number') {
      return problem('unparseable-differential', 'DIFFERENTIAL_DIAGNOSIS item is not [name, probability]');
    }
    out.push({ diagnosis: item[0], probability: item[1] });
  }
  return ok(out);
}

/** Turns one official-format DDXPlus row into a NormalizedRecord, or says why it cannot. */
export function ddxplusRowToRecord(row: DdxplusRow, dict: DdxplusDictionary, ctx: RowContext): Result<NormalizedRecord, RowProblem> {
  const diagnosis = text(row.PATHOLOGY);
  if (diagnosis === null) return problem('missing-diagnosis', 'PATHOLOGY is empty');
  const condition = dict.resolveCondition(diagnosis);
  if (condition === null) return problem('unknown-pathology', 'PATHOLOGY is not in release_conditions.json');
  const age = parseAge(row.AGE);
  if (!age.ok) return age;
  const sex = parseSex(row.SEX);
  if (!sex.ok) return sex;
  const evText = text(row.EVIDENCES);
  if (evText === null) return problem('missing-evidences', 'EVIDENCES is empty');
  const tokens = parseEvidenceList(evText);
  if (!tokens.ok) return problem('unparseable-evidences', tokens.error);
  const findings: Finding[] = [];
  for (const t of tokens.value) {
    const f = renderFinding(t, dict.evidences.get(t.code));
    if (!f.ok) return f;
    findings.push(f.value);
  }
  const initial = text(row.INITIAL_EVIDENCE);
  if (initial !== null && !dict.evidences.has(initial)) return problem('unknown-evidence-code', `unknown INITIAL_EVIDENCE code ${initial}`);
  const differential = parseDifferential(row.DIFFERENTIAL_DIAGNOSIS);
  if (!differential.ok) return differential;
  return ok({
    id: ctx.id,
    diagnosis,
    icd10: condition.icd10,
    age: age.value,
    sex: sex.value,
    findings,
    initialFindingCode: initial,
    text: renderRecordText({ age: age.value, sex: sex.value, findings, evidences: dict.evidences }),
    location: ctx.location,
    differential: differential.value,
  });
}
