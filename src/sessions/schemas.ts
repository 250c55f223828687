/**
 * Request and response bodies of the consultation-session endpoints, defined once:
 * the router validates with them and the OpenAPI document can be generated from them.
 * Requests are strict (an unknown field is a 400).
 */
import { z } from 'zod';
import { InsufficientSchema } from '../http/diagnose-result-schema.js';
import { FindingInSchema } from '../http/schemas.js';
import { RANKER_NAMES } from '../followups/ranker.js';

export const AnswerValueSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('yes') }),
  z.strictObject({ type: z.literal('no') }),
  z.strictObject({ type: z.literal('unknown') }),
  z.strictObject({ type: z.literal('options'), optionIds: z.array(z.string().min(1).max(128)).max(200).describe('Option ids (feature ids) or source value codes (V_xx)') }),
  z.strictObject({ type: z.literal('number'), value: z.number().finite() }),
]);

export function startSessionSchema(maxTextChars: number) {
  return z
    .strictObject({
      text: z.string().max(maxTextChars, `must be at most ${maxTextChars} characters`).refine((t) => t.trim().length > 0, 'must not be empty').optional(),
      findings: z.array(FindingInSchema).max(500).optional(),
      age: z.int().min(0).max(130).nullable().optional(),
      sex: z.enum(['M', 'F']).nullable().optional(),
      ranker: z.enum(RANKER_NAMES).optional().describe('Follow-up ranker; default information-gain (measured best)'),
      followUps: z.int().min(1).max(20).optional().describe('Questions returned per turn'),
    })
    .refine((b) => b.text !== undefined || (b.findings?.length ?? 0) > 0, { message: 'give text or at least one finding', path: ['text'] });
}
export type StartSessionRequest = z.infer<ReturnType<typeof startSessionSchema>>;

export const AnswersRequestSchema = z.strictObject({
  answers: z
    .array(z.strictObject({ questionId: z.string().min(1).max(200), answer: AnswerValueSchema }))
    .min(1)
    .max(100),
  version: z.int().min(1).optional().describe("The session's `version` these answers were chosen on: if another answer was recorded since, 409 SESSION_CONFLICT instead of recording them"),
});
export type AnswersRequest = z.infer<typeof AnswersRequestSchema>;

const DifferentialItemSchema = z.object({
  diseaseId: z.string(),
  disease: z.string(),
  probability: z.number().describe('First turn: the /v1/diagnose score for the same body; then that differential updated by the answers (docs/followups.md)'),
});

export const QuestionViewSchema = z.object({
  id: z.string(),
  text: z.string(),
  answerType: z.enum(['yes-no', 'one-of', 'several-of', 'number']),
  options: z.array(z.object({ id: z.string(), valueCode: z.string().nullable(), label: z.string() })),
  score: z.number(),
  ranker: z.string(),
  featureId: z.string(),
});

export const StopSchema = z.object({
  stop: z.boolean(),
  reason: z.enum(['confident', 'no-questions']).nullable(),
  topProbability: z.number(),
  confidence: z.number(),
});

export const SessionViewSchema = z.object({
  sessionId: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  ranker: z.enum(RANKER_NAMES),
  differential: z.array(DifferentialItemSchema),
  questions: z.array(QuestionViewSchema),
  stop: StopSchema,
  answered: z.number().describe('Questions answered so far'),
  turnsLeft: z.number().describe('Answers that can still be recorded (each changed answer counts one) before the per-session cap DXGRAPH_SESSION_MAX_TURNS'),
  insufficient: InsufficientSchema
    .nullable()
    .describe("/v1/diagnose's verdict on the first description (too little matched the KG to rank); null once a question is answered"),
  version: z.int().describe('1 at the start, +1 per recorded answer turn; send it back with answers to refuse them if the session moved on (409)'),
  buildId: z.string().nullable().describe('The KG build the session started on; it takes answers only where that build is served (else 410)'),
});
export type SessionView = z.infer<typeof SessionViewSchema>;

export const TurnSchema = z.object({
  at: z.string(),
  kind: z.enum(['start', 'answers']),
  answers: z.array(z.object({ questionId: z.string(), question: z.string(), answer: AnswerValueSchema })),
  differential: z.array(DifferentialItemSchema),
  questions: z.array(z.string()).describe('Ids of the questions offered after this turn'),
  stop: StopSchema,
});
export type Turn = z.infer<typeof TurnSchema>;

export const SessionHistorySchema = SessionViewSchema.extend({
  description: z.object({
    text: z.string().nullable(),
    findings: z.array(z.object({ text: z.string(), polarity: z.enum(['present', 'absent']), code: z.string().nullable(), valueCode: z.string().nullable() })),
    age: z.number().nullable(),
    sex: z.enum(['M', 'F']).nullable(),
  }),
  /** Features the first description was matched to (ids and graph texts, no patient text). */
  evidence: z.array(z.object({ featureId: z.string(), feature: z.string(), present: z.boolean() })),
  turns: z.array(TurnSchema),
});
export type SessionHistory = z.infer<typeof SessionHistorySchema>;
