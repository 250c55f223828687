/**
 * Answers to follow-up questions, validated against the question they answer and put
 * into one canonical form (so a repeated identical answer compares equal).
 */
import { err, ok, type Result } from '../result.js';
import type { Question } from './question-model.js';

export type AnswerValue =
  | { type: 'yes' }
  | { type: 'no' }
  | { type: 'unknown' }
  /** Chosen options by feature id (or source value code); [] means "none of them". */
  | { type: 'options'; optionIds: string[] }
  | { type: 'number'; value: number };

export interface QuestionAnswer {
  question: Question;
  answer: AnswerValue;
}

/**
 * Checks that an answer fits its question and canonicalises it: options become sorted,
 * de-duplicated feature ids; an empty option list becomes "no"; a number becomes the
 * nearest numeric option (a value never seen in training carries no extra evidence).
 */
export function normalizeAnswer(q: Question, a: AnswerValue): Result<AnswerValue, string> {
  if (a.type === 'unknown' || a.type === 'no') return ok({ type: a.type });
  if (q.answerType === 'yes-no') {
    return a.type === 'yes' ? ok(a) : err(`question ${q.id} takes yes, no or unknown`);
  }
  if (a.type === 'yes') return err(`question ${q.id} takes ${q.answerType === 'number' ? 'a number' : 'options'}, not yes`);
  if (a.type === 'number') {
    if (q.answerType !== 'number') return err(`question ${q.id} takes options, not a number`);
    if (!Number.isFinite(a.value)) return err(`question ${q.id}: the number must be finite`);
    const nearest = [...q.options].sort((x, y) => Math.abs(Number(x.valueCode) - a.value) - Math.abs(Number(y.valueCode) - a.value))[0];
    return nearest ? ok({ type: 'options', optionIds: [nearest.featureId] }) : err(`question ${q.id} has no options`);
  }
  const ids = new Set<string>();
  for (const raw of a.optionIds) {
    const opt = q.options.find((o) => o.featureId === raw || o.valueCode === raw);
    if (!opt) return err(`question ${q.id} has no option '${raw}'`);
    ids.add(opt.featureId);
  }
  if (ids.size > 1 && q.answerType !== 'several-of') return err(`question ${q.id} takes one option`);
  return ids.size === 0 ? ok({ type: 'no' }) : ok({ type: 'options', optionIds: [...ids].sort() });
}

export function sameAnswer(a: AnswerValue, b: AnswerValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The feature ids an answer affirms (empty for no/unknown). */
export function affirmedFeatures(q: Question, a: AnswerValue): string[] {
  if (a.type === 'yes') return q.options.map((o) => o.featureId);
  return a.type === 'options' ? a.optionIds : [];
}
