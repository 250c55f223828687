import { z } from 'zod';
import { FOLLOW_UP_RANKERS } from '../query/contracts.js';
import { TripleSchema } from './diagnose-result-schema.js';
import { codedMeasurementFinding } from '../clinical-text/analysis/measurements.js';

/**
 * Every HTTP request and response body, defined once. Routes validate with these and
 * the OpenAPI document (openapi.ts) is generated from them, so the two cannot drift.
 * Request objects are strict: an unknown field is a 400, not silently ignored.
 */
export { DiagnoseResultSchema } from './diagnose-result-schema.js';

const code = z.string().trim().min(1).max(64);

export const FindingInSchema = z
  .strictObject({
    text: z.string().trim().min(1, 'must not be empty').max(1000),
    polarity: z.enum(['present', 'absent']).default('present'),
    code: code.nullable().default(null).describe('Source question code, e.g. DDXPlus evidence "E_55", or a LOINC code with `value`'),
    valueCode: code.nullable().default(null).describe('Source answer code, e.g. "V_89"'),
    value: z.number().finite().optional().describe('A measured value of the LOINC code in `code` ("LOINC:8867-4" or "8867-4"), read as the same value written in text is (docs/http-api.md)'),
    unit: z.string().trim().min(1).max(32).nullable().optional().describe("The value's unit (UCUM or as written: \"/min\", \"mg/dL\"); absent: placed by plausibility"),
  })
  .superRefine((f, ctx) => {
    if (f.value === undefined) {
      if (f.unit !== undefined && f.unit !== null) ctx.addIssue({ code: 'custom', path: ['unit'], message: 'a unit needs a value' });
      return;
    }
    const problem = measuredProblem(f);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.part], message: problem.reason });
  });
export type FindingIn = z.infer<typeof FindingInSchema>;

/** Why a finding with a value cannot be read as a measurement (null: it can: finding-input.ts reads it). */
function measuredProblem(f: { code: string | null; valueCode: string | null; polarity: string; value?: number; unit?: string | null }): { part: string; reason: string } | null {
  const loinc = loincOf(f.code);
  if (loinc === null) return { part: 'code', reason: 'a value needs a LOINC code ("LOINC:8867-4" or "8867-4")' };
  if (f.valueCode !== null) return { part: 'valueCode', reason: 'give a value or a valueCode (a bin), not both' };
  if (f.polarity !== 'present') return { part: 'polarity', reason: 'a measured value is present' };
  const read = codedMeasurementFinding(loinc, f.value!, f.unit ?? null);
  return read.ok ? null : read.error;
}

/** "LOINC:8867-4" or "8867-4" → "8867-4"; null for any other code. */
export function loincOf(code: string | null): string | null {
  const m = /^(?:LOINC:)?(\d{1,7}-\d)$/.exec(code ?? '');
  return m ? m[1]! : null;
}

/**
 * Request bounds (issue 18): every option that multiplies work or output has a ceiling, so
 * one request's cost and response size are bounded (docs/security.md lists them). A value
 * outside its range is a 400 naming the field and the rule.
 */
export const OPTION_LIMITS = { topK: 100, topM: 10, candidateSubcategories: 10, followUps: 20 } as const;

export const DiagnoseOptionsSchema = z.strictObject({
  topK: z.int().min(1).max(OPTION_LIMITS.topK).optional().describe('k: similar records retrieved'),
  topM: z.int().min(1).max(OPTION_LIMITS.topM).optional().describe('m: feature matches kept per finding (MedRAG eq. 9-11)'),
  // Below 0 every feature "matches" (cosine of unrelated texts): no use, only work.
  matchThreshold: z.number().min(0).max(1).optional().describe('t_matching: minimum cosine similarity for a feature match (0-1)'),
  candidateSubcategories: z.int().min(1).max(OPTION_LIMITS.candidateSubcategories).optional(),
  followUps: z.int().min(0).max(OPTION_LIMITS.followUps).optional(),
  trace: z
    .enum(['summary', 'full'])
    .optional()
    .describe("'summary' (default): per-finding best match, capped lists, clipped record texts, with counts of what was left out; 'full': everything the pipeline computed"),
  reasoner: z.enum(['auto', 'evidence', 'llm']).optional(),
  followUpRanker: z.enum(FOLLOW_UP_RANKERS).optional().describe('Follow-up ranker; default information-gain (measured better than sigma)'),
  gate: z.enum(['auto', 'on', 'off']).optional().describe("Information-density gate (FIND): 'auto' defers to DXGRAPH_GATE; 'on' is a 400 when the build has no classifier"),
  gateThresholds: z
    .strictObject({ theta1: z.number().min(0).max(1).optional(), theta2: z.number().min(0).max(1).optional() })
    .optional()
    .describe('I_norm ≥ theta1: direct answer; < theta2: retrieval plus an insufficient-information warning'),
  retrieval: z.enum(['record', 'find']).optional().describe("'record': whole-record retrieval; 'find': FIND chunk retrieval from the A/B sentences"),
});

/** The diagnose request; the text limit comes from config (`DXGRAPH_MAX_TEXT_CHARS`). */
export function diagnoseRequestSchema(maxTextChars: number) {
  return z
    .strictObject({
      text: z
        .string()
        .max(maxTextChars, `must be at most ${maxTextChars} characters`)
        .refine((t) => t.trim().length > 0, 'must not be empty')
        .optional()
        .describe('Free-text patient description'),
      findings: z.array(FindingInSchema).max(500).optional().describe('Structured findings (passed through decomposition)'),
      age: z.int().min(0).max(130).nullable().optional(),
      sex: z.enum(['M', 'F']).nullable().optional(),
      options: DiagnoseOptionsSchema.optional(),
    })
    .refine((b) => b.text !== undefined || (b.findings?.length ?? 0) > 0, {
      message: 'give text or at least one finding',
      path: ['text'],
    });
}
export type DiagnoseRequest = z.infer<ReturnType<typeof diagnoseRequestSchema>>;

export const ErrorSchema = z.object({
  error: z.object({
    code: z.string().describe('INPUT, UNAUTHORIZED, NOT_FOUND, PAYLOAD_TOO_LARGE, UNAVAILABLE, INTERNAL'),
    message: z.string(),
    field: z.string().nullable().describe('The offending request field (dot path), when one is to blame'),
  }),
});
export type ErrorBody = z.infer<typeof ErrorSchema>;

export const KgSummarySchema = z.object({
  counts: z.object({
    categories: z.number(),
    subcategories: z.number(),
    diseases: z.number(),
    features: z.number(),
    ehrFeatures: z.number(),
    augmentedFeatures: z.number(),
    keyDifferences: z.number(),
    records: z.number(),
  }),
  build: z
    .object({
      id: z.string(),
      source: z.string(),
      embedder: z.string(),
      embeddingDim: z.number(),
      status: z.string(),
      startedAt: z.string(),
      finishedAt: z.string().nullable(),
    })
    .nullable(),
});
export type KgSummary = z.infer<typeof KgSummarySchema>;

export const DiseaseItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  icd10: z.string().nullable(),
  recordCount: z.number(),
  subcategoryId: z.string().nullable(),
  subcategory: z.string().nullable(),
  categoryId: z.string().nullable(),
  category: z.string().nullable(),
});
export const DiseaseListSchema = z.object({ diseases: z.array(DiseaseItemSchema) });
export type DiseaseItem = z.infer<typeof DiseaseItemSchema>;

export const SubcategoryIdSchema = z.string().min(1).max(200);

export const DifferencesSchema = z.object({
  subcategory: z.object({ id: z.string(), name: z.string(), categoryId: z.string().nullable(), category: z.string().nullable() }),
  diseases: z.array(z.object({ id: z.string(), name: z.string() })),
  triples: z.array(TripleSchema).describe('Differences KG K(e_L2) of MedRAG eq. 14'),
});
export type Differences = z.infer<typeof DifferencesSchema>;

export const HealthSchema = z.object({ status: z.literal('ok') });
export const ReadySchema = z.object({
  ready: z.boolean(),
  checks: z.object({ neo4j: z.boolean(), indexes: z.boolean() }),
});
export type Readiness = z.infer<typeof ReadySchema>['checks'];
