import type { AnswerType, Finding } from '../../domain/record.js';
import { err, ok, type Result } from '../../result.js';
import type { RowProblem } from '../row-issues.js';
import type { EvidenceEntry } from './dictionary.js';
import type { EvidenceToken } from './evidence-token.js';
import { SHORT_LABELS } from './short-labels.js';

/** DDXPlus answers 'Y'/'N' for yes/no categorical questions (V_12 / V_10). */
const ANSWER_WORDS: Readonly<Record<string, string>> = { Y: 'yes', N: 'no' };
/** Answers that deny the question ("N", "nowhere"): kept, but as evidence against. */
const NEGATIVE_ANSWERS = new Set(['N', 'nowhere']);

/** "label: value" when the question has a short label, else "question value". */
function phrase(code: string, question: string, value: string): string {
  const label = SHORT_LABELS[code];
  return label !== undefined ? `${label}: ${value}` : `${question} ${value}`;
}

/** The question's answer type as DDXPlus declares it: data_type B yes/no, M several, C one (a number when its values are numeric). */
export function ddxplusAnswerType(ev: EvidenceEntry): AnswerType {
  if (ev.data_type === 'B') return 'yes-no';
  if (ev.data_type === 'M') return 'several-of';
  return typeof ev['possible-values'][0] === 'number' ? 'number' : 'one-of';
}

function finding(token: EvidenceToken, ev: EvidenceEntry, text: string, polarity: Finding['polarity'], valueCode: string | null, valueText: string): Finding {
  return { text, polarity, code: token.code, valueCode, question: ev.question_en, valueText, antecedent: ev.is_antecedent, answerType: ddxplusAnswerType(ev), parentCode: ev.code_question !== token.code ? ev.code_question : null };
}

/**
 * One Finding per evidence token (a multi-choice answer with 3 values gives 3 findings,
 * each a graph feature of its own); grouping of multi-choice values happens in the text only.
 */
export function renderFinding(token: EvidenceToken, ev: EvidenceEntry | undefined): Result<Finding, RowProblem> {
  if (ev === undefined) return err({ category: 'unknown-evidence-code', reason: `unknown evidence code ${token.code}` });
  if (token.value === null) {
    if (ev.data_type !== 'B') return err({ category: 'missing-evidence-value', reason: `evidence ${token.code} (type ${ev.data_type}) has no value` });
    return ok(finding(token, ev, `${ev.question_en} yes`, 'present', null, 'yes'));
  }
  if (ev.data_type === 'B') return err({ category: 'unexpected-evidence-value', reason: `boolean evidence ${token.code} has a value` });
  if (token.value.kind === 'number') {
    const raw = token.value.raw;
    return ok(finding(token, ev, phrase(token.code, ev.question_en, raw), 'present', raw, raw));
  }
  const meaning = ev.value_meaning[token.value.code];
  if (meaning === undefined) return err({ category: 'unknown-value-code', reason: `unknown value code ${token.value.code} for evidence ${token.code}` });
  const valueText = ANSWER_WORDS[meaning.en] ?? meaning.en;
  const polarity = NEGATIVE_ANSWERS.has(meaning.en) ? 'absent' : 'present';
  return ok(finding(token, ev, phrase(token.code, ev.question_en, valueText), polarity, token.value.code, valueText));
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
    lines.push(phrase(first.code as string, first.question as string, g.map((f) => f.valueText).join(', ')));
  }
  return lines.join('\n');
}
