import type { Finding } from '../../domain/record.js';
import { err, ok, type Result } from '../../result.js';
import type { RowProblem } from '../row-issues.js';
import type { EvidenceEntry } from './dictionary.js';
import type { EvidenceToken } from './evidence-token.js';
import { SHORT_LABELS } from './short-labels.js';

/** DDXPlus answers 'Y'/'N' for yes/no categorical questions (V_12 / V_10). */
const ANSWER_WORDS: Readonly<Record<string, string>> = { Y: 'yes', N: 'no' };
/** Answers that deny the question ("N", "nowhere"): kept, but as evidence against. */
const NEGATIVE_ANSWERS = new Set(['N', 'nowhere']);

/**
 * One Finding per evidence token (a multi-choice answer with 3 values gives 3 findings,
 * each a graph feature of its own); grouping of multi-choice values happens in the text only.
 */
export function renderFinding(token: EvidenceToken, ev: EvidenceEntry | undefined): Result<Finding, RowProblem> {
  if (ev === undefined) return err({ category: 'unknown-evidence-code', reason: `unknown evidence code ${token.code}` });
  const base = { code: token.code, question: ev.question_en, antecedent: ev.is_antecedent };
  if (token.value === null) {
    if (ev.data_type !== 'B') return err({ category: 'missing-evidence-value', reason: `evidence ${token.code} (type ${ev.data_type}) has no value` });
    return ok({ ...base, text: `${ev.question_en} yes`, polarity: 'present', valueCode: null, valueText: 'yes' });
  }
  if (ev.data_type === 'B') return err({ category: 'unexpected-evidence-value', reason: `boolean evidence ${token.code} has a value` });
  const label = SHORT_LABELS[token.code];
  const phrase = (value: string): string => (label !== undefined ? `${label}: ${value}` : `${ev.question_en} ${value}`);
  if (token.value.kind === 'number') {
    return ok({ ...base, text: phrase(token.value.raw), polarity: 'present', valueCode: token.value.raw, valueText: token.value.raw });
  }
  const meaning = ev.value_meaning[token.value.code];
  if (meaning === undefined) return err({ category: 'unknown-value-code', reason: `unknown value code ${token.value.code} for evidence ${token.code}` });
  const valueText = ANSWER_WORDS[meaning.en] ?? meaning.en;
  return ok({
    ...base,
    text: phrase(valueText),
    polarity: NEGATIVE_ANSWERS.has(meaning.en) ? 'absent' : 'present',
    valueCode: token.value.code,
    valueText,
  });
}

/**
 * Record text: one clause per line (a line splitter recovers them): age, sex, then each
 * finding; the values of one multi-choice question are joined on a single line.
 */
export function renderRecordText(input: { age: number | null; sex: 'M' | 'F' | null; findings: readonly Finding[]; evidences: ReadonlyMap<string, EvidenceEntry> }): string {
  const lines = [`age: ${input.age ?? 'unknown'}`, `sex: ${input.sex === 'M' ? 'male' : input.sex === 'F' ? 'female' : 'unknown'}`];
  const groups = new Map<string, Finding[]>();
  for (const f of input.findings) {
    const multi = f.code !== null && input.evidences.get(f.code)?.data_type === 'M';
    const key = multi ? `M:${f.code}` : `#${groups.size}`;
    const g = groups.get(key);
    if (g) g.push(f);
    else groups.set(key, [f]);
  }
  for (const [key, g] of groups) {
    const first = g[0] as Finding;
    if (!key.startsWith('M:') || g.length === 1) {
      lines.push(first.text);
      continue;
    }
    const label = SHORT_LABELS[first.code as string];
    const values = g.map((f) => f.valueText).join(', ');
    lines.push(label !== undefined ? `${label}: ${values}` : `${first.question} ${values}`);
  }
  return lines.join('\n');
}
