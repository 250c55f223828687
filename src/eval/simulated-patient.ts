/**
 * The simulated patient of the interactive and masking protocols: answers a session's
 * question (as the HTTP session API shows it) from the held-out record, through the
 * follow-ups engine's own record-answering rule (src/followups/simulate.ts), so the
 * benchmark and the harness agree on what the patient says.
 */
import type { AnswerValue } from '../followups/answers.js';
import type { Question } from '../followups/question-model.js';
import type { FeatureIdScheme } from '../followups/record-kg.js';
import { recordAnswer, type RecordWorld } from '../followups/simulate.js';
import type { NormalizedRecord } from '../domain/record.js';
import type { SessionView } from '../sessions/schemas.js';

type QuestionView = SessionView['questions'][number];

/** The engine's Question behind a session view (yes/no views list no options: the feature is the option). */
export function questionOfView(v: QuestionView): Question {
  const options =
    v.answerType === 'yes-no' ? [{ featureId: v.featureId, valueCode: null, label: v.text }] : v.options.map((o) => ({ featureId: o.id, valueCode: o.valueCode, label: o.label }));
  // Coded questions have ids `q:<source code>` (question-model.ts); the code lets a numeric answer be read from the record.
  return { id: v.id, code: v.id.startsWith('q:') ? v.id.slice(2) : null, text: v.text, answerType: v.answerType, options, antecedent: null };
}

/** `world`: whether what the record does not list is a "no" (DDXPlus) or "don't know" (every other source). */
export function patientAnswer(v: QuestionView, rec: NormalizedRecord, scheme: FeatureIdScheme, world: RecordWorld = 'closed'): AnswerValue {
  return recordAnswer(questionOfView(v), rec, scheme, world);
}
