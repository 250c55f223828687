import { createReadStream } from 'node:fs';
import { csvRows } from '../../src/sources/csv-rows.js';
import { parseEvidenceList } from '../../src/sources/ddxplus/evidence-token.js';

/**
 * The empirical profile of a DDXPlus sample that the scale-up generator resamples from:
 * per disease, the rows it had (donors of AGE / SEX / DIFFERENTIAL_DIAGNOSIS), how often
 * each evidence question was present, the answers observed for it (the value tokens as
 * one set), and the initial evidences. Also the same question statistics over all rows,
 * which the noise mixes in.
 */
export interface Donor {
  age: string;
  sex: string;
  differential: string;
}

export interface QuestionStats {
  /** Rows (of the disease, or of the whole sample) where the question appears. */
  present: number;
  /** Observed answers: the row's tokens for this question, as one list. */
  answers: string[][];
}

export interface DiseaseProfile {
  name: string;
  rows: number;
  donors: Donor[];
  questions: Map<string, QuestionStats>;
  initial: string[];
}

export interface SampleProfile {
  rows: number;
  diseases: DiseaseProfile[];
  global: Map<string, QuestionStats>;
}

const questionOf = (token: string) => token.split('_@_')[0]!;

function addRow(into: Map<string, QuestionStats>, byQuestion: Map<string, string[]>): void {
  for (const [q, tokens] of byQuestion) {
    const s = into.get(q) ?? { present: 0, answers: [] };
    s.present++;
    s.answers.push(tokens);
    into.set(q, s);
  }
}

export async function readProfile(csvPath: string): Promise<SampleProfile> {
  const diseases = new Map<string, DiseaseProfile>();
  const global = new Map<string, QuestionStats>();
  let rows = 0;
  for await (const item of csvRows(createReadStream(csvPath))) {
    if (item.kind !== 'row') continue;
    const r = item.row;
    const tokens = r.EVIDENCES ? parseEvidenceList(r.EVIDENCES) : null;
    if (!r.PATHOLOGY || !tokens?.ok) continue;
    rows++;
    const d: DiseaseProfile = diseases.get(r.PATHOLOGY) ?? { name: r.PATHOLOGY, rows: 0, donors: [], questions: new Map(), initial: [] };
    diseases.set(r.PATHOLOGY, d);
    d.rows++;
    d.donors.push({ age: r.AGE ?? '', sex: r.SEX ?? '', differential: r.DIFFERENTIAL_DIAGNOSIS ?? '' });
    if (r.INITIAL_EVIDENCE) d.initial.push(r.INITIAL_EVIDENCE);
    const byQuestion = new Map<string, string[]>();
    for (const raw of listTokens(r.EVIDENCES!)) {
      const q = questionOf(raw);
      byQuestion.set(q, [...(byQuestion.get(q) ?? []), raw]);
    }
    addRow(d.questions, byQuestion);
    addRow(global, byQuestion);
  }
  return { rows, diseases: [...diseases.values()].sort((a, b) => a.name.localeCompare(b.name)), global };
}

/** The raw token strings of an EVIDENCES cell (validated by parseEvidenceList first). */
function listTokens(cell: string): string[] {
  return [...cell.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
}
