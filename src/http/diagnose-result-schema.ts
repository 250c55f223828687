import { z } from 'zod';
import type { DiagnoseResult } from '../query/contracts.js';

/**
 * The `POST /v1/diagnose` response, mirroring `DiagnoseResult` in src/query/contracts.ts.
 * The type assertion at the bottom fails compilation if the two drift apart.
 */
const Polarity = z.enum(['present', 'absent']);

const SpanSchema = z.object({ start: z.number(), end: z.number() });

export const InputFindingOut = z.object({
  text: z.string(),
  polarity: Polarity,
  code: z.string().nullable(),
  valueCode: z.string().nullable(),
  span: SpanSchema.optional().describe('Where the finding sits in the request text (UTF-16 offsets)'),
  clause: SpanSchema.optional(),
  assertion: z.enum(['present', 'absent', 'possible', 'hypothetical']).optional().describe('NegEx/ConText assertion'),
  experiencer: z.enum(['patient', 'family', 'other']).optional(),
  temporality: z.enum(['current', 'historical']).optional(),
  cue: z.string().nullable().optional().describe('The cue that set a non-default attribute'),
  section: z.string().optional().describe('The kind of note section the finding sits in ("hpi", "exam", "pmh", "meds"...), when the text had headings'),
  values: z
    .object({
      side: z.enum(['R', 'L', 'both']).optional(),
      intensity: z.number().optional(),
      temperatureC: z.number().optional(),
      duration: z.object({ value: z.number(), unit: z.enum(['hour', 'day', 'week', 'month', 'year']), days: z.number() }).optional(),
    })
    .optional(),
});

/** Too little of the input matched the KG to rank (a diagnose result, and a session's first turn). */
export const InsufficientSchema = z.object({ reason: z.enum(['no-finding-matched', 'too-few-findings-matched']), message: z.string() });

export const TripleSchema = z.object({
  subject: z.string(),
  relation: z.string(),
  object: z.string(),
  subjectId: z.string().nullable().describe('Graph id behind the subject (disease id)'),
  objectId: z.string().nullable().describe('Graph id behind the object (feature id)'),
  weight: z.number().nullable().describe('Prevalence on HAS_MANIFESTATION edges / key differences, when known'),
});

const SubcategoryVoteSchema = z.object({ subcategoryId: z.string(), name: z.string(), votes: z.number() });

export const RankedDiseaseSchema = z.object({
  diseaseId: z.string(),
  disease: z.string(),
  subcategory: z.string(),
  category: z.string(),
  score: z.number().describe("Probability of this disease over every disease of the KG; `probability` says what kind (calibrated posterior or an LLM's own confidence). Listed scores may sum to less than 1"),
  evidence: z.array(z.string()),
});

export const FollowUpSchema = z.object({
  id: z.string(),
  featureId: z.string(),
  text: z.string(),
  score: z.number().describe('sigma = (n-1)/deg (MedRAG eq. 15-16) or information gain'),
  ranker: z.string(),
});

const GateSchema = z.object({
  score: z.number().describe('I_norm (FIND eq. 2-3)'),
  decision: z.enum(['direct', 'retrieve', 'retrieve-warn']),
  sentences: z.array(z.object({ text: z.string(), label: z.enum(['A', 'B', 'C']) })),
  warning: z.string().nullable(),
});

export const DiagnoseResultSchema = z.object({
  differential: z.array(RankedDiseaseSchema),
  followUps: z.array(FollowUpSchema),
  report: z
    .object({
      status: z.enum(['pending', 'done', 'failed']).optional().describe('With an LLM (issue 48): "pending" in the first answer (fetch `href`), "done" or "failed" at the href'),
      href: z.string().nullable().optional().describe('GET it (same API key) for the LLM\'s whole answer; null when no report will come'),
      error: z.string().optional().describe('Why there is no report ("failed")'),
      narrative: z.string().optional(),
      treatments: z.array(z.string()).optional().describe('Empty from a small local model (its advice is not shown)'),
      medications: z.array(z.string()).optional().describe('Empty from a small local model (its advice is not shown)'),
    })
    .nullable()
    .describe("The LLM's report: whole sentences only, no dosing from a small local model"),
  degraded: z.boolean().describe('True when the LLM path failed or timed out and the evidence reasoner answered'),
  reasoner: z.string(),
  probability: z
    .object({
      source: z.enum(['evidence-posterior', 'llm-confidence']),
      calibrated: z.boolean(),
      inputKind: z.enum(['coded', 'text']),
      completeness: z.number().nullable(),
      temperature: z.number().nullable(),
      tailScale: z.number().nullable(),
      mix: z.object({ weight: z.number(), beta: z.number() }).nullable(),
      topLabel: z.boolean().describe("The first disease's probability was mapped by the calibration's fit of how often the first disease is right (an isotonic map of the calibrated probability, or a logistic map of the raw log-odds where the calibrated one ranked right and wrong answers worse), the others rescaled by one factor"),
      unlisted: z.number(),
      uncalibrated: z.array(z.number()).nullable().describe('The raw (uncalibrated) posterior of each listed disease, same order; not a probability to show'),
    })
    .nullable()
    .describe("What the scores are: the evidence reasoner's posterior (calibrated on held-out cases at build time when `calibrated`), or the LLM's own stated confidence (never calibrated, never blended); `unlisted` is the probability left to diseases not listed"),
  model: z.string().nullable().describe('The LLM that wrote the answer (a GGUF name with "(local)", or the endpoint\'s model); null when no model did (evidence reasoner, fallback)'),
  insufficient: InsufficientSchema
    .nullable()
    .describe('Set when the input carried too little to rank: the differential is then mostly the prior; ask the follow-ups'),
  trace: z.object({
    gate: GateSchema.nullable(),
    decomposition: z
      .object({
        method: z.enum(['rules', 'llm']),
        fallback: z.string().nullable(),
        age: z.number().nullable(),
        sex: z.enum(['M', 'F']).nullable(),
        note: z
          .object({
            sections: z.array(z.string()).describe('Section kinds in text order ("hpi", "ros", "exam"...) when the text was a note with headings'),
            sectionsLeftOut: z.array(z.object({ kind: z.string(), chars: z.number() })).describe("Sections left out as the clinician's own conclusion (assessment, plan, diagnoses, hospital course): kind and characters, never the text"),
            findingsRead: z.number().describe('Findings read'),
            findingsLeftOut: z.number().describe('Findings left out over DXGRAPH_MAX_FINDINGS: presentation, exam and results are kept first, then review of systems, history, social, family, treatment'),
            findingsLeftOutBySection: z.record(z.string(), z.number()).describe('Findings left out per section kind ("text": outside any section)'),
          })
          .optional()
          .describe('How much of a written note was read (issue 47); absent when the text was no note with headings and every finding was read'),
      })
      .describe('Which decomposition answered (rules / LLM, MedRAG eq. 8), why the LLM did not, and age/sex read from the text'),
    findings: z.array(InputFindingOut),
    matches: z.array(
      z.object({
        findingIndex: z.number(), featureId: z.string(), featureText: z.string().describe("The feature's text as its source wrote it (for DDXPlus the patient questionnaire)"),
        featureLabel: z.string().optional().describe("The feature's clinical label, what a clinician reads (\"Pain worse on deep breathing\")"),
        similarity: z.number(), polarity: Polarity,
        alternatives: z.string().optional().describe('Matches sharing this key are alternatives of one concept'),
        via: z.string().optional().describe('Why: the lexicon form, typo correction, embedding or code that matched'),
      }),
    ),
    votes: z.array(SubcategoryVoteSchema),
    chosenSubcategory: SubcategoryVoteSchema.nullable(),
    differencesKg: z.array(TripleSchema),
    retrieved: z.array(
      z.object({
        id: z.string(),
        similarity: z.number(),
        diagnosis: z.string(),
        diseaseId: z.string().nullable(),
        text: z.string().describe("The record's text as its source rendered it (what the record index embeds; for DDXPlus, the patient questionnaire)"),
        summary: z.string().nullable().describe("What a clinician reads: the record's findings by their clinical labels, after age and sex; null for builds made before it"),
      }),
    ),
    retrieval: z
      .object({ mode: z.enum(['dense', 'lexical', 'hybrid', 'find', 'none']), note: z.string().nullable() })
      .optional()
      .describe('How similar records were found; "none" when DXGRAPH_RECORD_RETRIEVAL=none turned retrieval off (no similar records, no disease profiles: the KG\'s own reasoning). Absent when the gate answered directly'),
    timingsMs: z.record(z.string(), z.number()),
    omitted: z
      .object({
        matches: z.number(),
        votes: z.number(),
        differencesKg: z.number(),
        retrieved: z.number(),
        gateSentences: z.number(),
        clippedTexts: z.number(),
      })
      .optional()
      .describe("Summary trace (the default): how many items each capped list left out and how many texts were clipped; absent with options.trace 'full'"),
  }),
});

// Compile-time drift check between the schema and the contract.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Wire = z.infer<typeof DiagnoseResultSchema>;
const sameShape: Same<Omit<Wire, 'report'>, Omit<DiagnoseResult, 'report'>> = true;
// The wire's report adds the LLM report's status and href (issue 48, src/reports) to the contract's.
const reportFits: [DiagnoseResult['report']] extends [Wire['report']] ? true : false = true;
void sameShape;
void reportFits;
