import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { inputKind } from '../calibration/temperature.js';
import { z } from 'zod';
import { completeJson } from '../adapters/llm/structured.js';
import type { FollowUpQuestion, RankedDisease } from '../query/contracts.js';
import { diseaseLineage, type KgSnapshot } from '../query/kg-snapshot.js';
import type { Reasoner, ReasonerContext, ReasonerOutput } from './reasoner.js';
import type { PromptFile } from '../adapters/llm/prompts.js';
import { renderDiagnosePrompt, type PromptLimits } from './llm-prompt.js';
import { completeSentences, shapeReport } from './llm-report-text.js';

/**
 * LLM reasoner, MedRAG eq. 17: A = M_g(q, d_r, K, p_s). The prompt p_s (prompts/diagnose.md)
 * gets the patient, the retrieved records and the differences KG; the reply must match
 * a zod schema whose disease names are restricted to the KG's diseases, with one repair
 * attempt (adapters/llm/structured.ts). A failure is thrown as the adapter's typed error
 * (LlmOutputError / ServiceUnavailableError); WithFallback turns it into a degraded answer.
 */
export interface LlmReasonerDeps {
  chat: BaseChatModel;
  /** prompts/diagnose.md, from `loadDiagnosePrompt()`. */
  prompt: PromptFile;
  /** Deadline for the whole exchange, repair included (config `llm.timeoutMs`). */
  timeoutMs: number;
  /** The model's name as clients see it (DiagnoseResult.model); default "llm". */
  model?: string;
  /** How much retrieval context the prompt carries (llm-prompt.ts); default DEFAULT_PROMPT_LIMITS. */
  promptLimits?: PromptLimits;
  /** Whether the model's treatments, medications and doses are shown (llm-report-text.ts); false for a small local model. Absent = true. */
  clinicalAdvice?: boolean;
  /** Whether the model's strings are capped by a grammar and may stop mid-sentence (a local model): whole sentences only. Absent = false. */
  capped?: boolean;
}

/** `advice: false` (a small local model, whose advice is never shown): the model is held to empty treatment lists instead of writing them for nothing. */
export function llmAnswerSchema(diseaseNames: [string, ...string[]], opts: { advice: boolean } = { advice: true }) {
  const adviceItems = opts.advice ? 20 : 0;
  return z.object({
    diagnoses: z
      .array(z.object({ disease: z.enum(diseaseNames), explanation: z.string().max(4000), confidence: z.number().min(0).max(1).optional() }))
      .min(1)
      .max(10),
    followUpQuestions: z.array(z.string().min(1).max(500)).max(10),
    treatments: z.array(z.string().max(1000)).max(adviceItems),
    medications: z.array(z.string().max(1000)).max(adviceItems),
    narrative: z.string().max(8000),
  });
}
export type LlmAnswer = z.infer<ReturnType<typeof llmAnswerSchema>>;

export class LlmReasoner implements Reasoner {
  readonly name = 'llm';
  private readonly schemas = new WeakMap<KgSnapshot, ReturnType<typeof llmAnswerSchema>>();
  constructor(private readonly deps: LlmReasonerDeps) {}

  async reason(ctx: ReasonerContext): Promise<ReasonerOutput> {
    const schema = this.schemaFor(ctx.snapshot);
    const { system, user } = renderDiagnosePrompt(this.deps.prompt, ctx, this.deps.promptLimits);
    const res = await completeJson({
      chat: this.deps.chat,
      system,
      prompt: user,
      schema,
      timeoutMs: this.deps.timeoutMs,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      budget: ctx.llmBudget ?? null,
    });
    if (!res.ok) throw res.error.error;
    const capped = this.deps.capped ?? false;
    const out = toReasonerOutput(res.value, ctx, { capped });
    const report = out.report && shapeReport(out.report, { clinicalAdvice: this.deps.clinicalAdvice ?? true, capped });
    return { ...out, report, model: this.deps.model ?? 'llm' };
  }

  private schemaFor(snapshot: KgSnapshot) {
    let s = this.schemas.get(snapshot);
    if (!s) {
      const names = [...new Set(snapshot.diseases.map((d) => d.name))];
      if (names.length === 0) throw new TypeError('LLM reasoner needs a KG with at least one disease');
      s = llmAnswerSchema(names as [string, ...string[]], { advice: this.deps.clinicalAdvice ?? true });
      this.schemas.set(snapshot, s);
    }
    return s;
  }
}

/** The validated answer → the reasoner contract: lineage from the KG, scores normalised to sum 1. */
export function toReasonerOutput(answer: LlmAnswer, ctx: ReasonerContext, opts: { capped: boolean } = { capped: false }): ReasonerOutput {
  const s = ctx.snapshot;
  const byName = new Map(s.diseases.map((d, i) => [d.name, i] as const));
  const seen = new Set<number>();
  const ranked = answer.diagnoses.flatMap((d, rank) => {
    const i = byName.get(d.disease)!;
    if (seen.has(i)) return [];
    seen.add(i);
    // Without a stated confidence, fall back to a reciprocal-rank weight.
    // Whole sentences only where a grammar capped the explanation (llm-report-text.ts).
    return [{ i, weight: d.confidence ?? 1 / (rank + 1), explanation: opts.capped ? completeSentences(d.explanation) : d.explanation.trim() }];
  });
  const total = ranked.reduce((a, r) => a + r.weight, 0);
  const differential: RankedDisease[] = ranked.map((r) => ({
    diseaseId: s.diseases[r.i]!.id,
    disease: s.diseases[r.i]!.name,
    ...diseaseLineage(s, r.i),
    score: total > 0 ? r.weight / total : 1 / ranked.length,
    evidence: r.explanation ? [r.explanation] : [],
  }));
  // The LLM's own confidence, normalised over its list: said as such, never calibrated or blended with the posterior.
  const probability = { source: 'llm-confidence' as const, calibrated: false, inputKind: inputKind(ctx.input), completeness: null, temperature: null, tailScale: null, mix: null, topLabel: false, unlisted: 0, uncalibrated: null };
  return { differential, followUps: toFollowUps(answer.followUpQuestions, ctx.followUps), report: reportOf(answer), degraded: false, probability };
}

/** LLM questions keep the ranker's feature link when they repeat a suggested question. */
function toFollowUps(questions: string[], suggested: FollowUpQuestion[]): FollowUpQuestion[] {
  const norm = (t: string) => t.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  const known = new Map(suggested.map((q) => [norm(q.text), q] as const));
  return questions.map((text, i) => {
    const hit = known.get(norm(text));
    return hit ? { ...hit, ranker: 'llm' } : { id: `llm:${i + 1}`, featureId: '', text, score: 1 / (i + 1), ranker: 'llm' };
  });
}

const reportOf = (a: LlmAnswer) => ({ narrative: a.narrative, treatments: a.treatments, medications: a.medications });
