import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import type { LlmBudget } from '../adapters/llm/budget.js';
import { loadPrompt, type PromptFile } from '../adapters/llm/prompts.js';
import { completeJson, type LlmFailure } from '../adapters/llm/structured.js';
import { conceptIndexFor, featureFor, type ConceptIndex } from '../clinical-text/concepts/concept-index.js';
import type { ConceptLexicon } from '../clinical-text/concepts/types.js';
import { err, ok, type Result } from '../result.js';
import type { InputFinding } from './contracts.js';
import type { KgSnapshot } from './kg-snapshot.js';

/**
 * LLM decomposition of manifestations (MedRAG eq. 8: q → {f_1..f_n}), constrained to the KG's
 * concept vocabulary: the reply is validated against a schema whose concept field only admits
 * vocabulary entries (one repair attempt, adapters/llm/structured.ts). A concept the vocabulary
 * names becomes a coded finding (exact match); a finding without one keeps its words for the
 * offline concept layer. Any failure is a value: the caller falls back to the rule path.
 */
export interface LlmDecomposerDeps {
  chat: BaseChatModel;
  prompt: PromptFile;
  timeoutMs: number;
}

export interface LlmDecomposition {
  findings: InputFinding[];
  demographics: { age: number | null; sex: 'M' | 'F' | null };
}

export function loadDecomposePrompt(opts: { dir?: string } = {}): Promise<PromptFile> {
  return loadPrompt('decompose', opts);
}

interface Vocabulary {
  lines: string;
  /** label → code for labels that name a yes/no concept of the KG (family: a family-history concept). */
  codes: Map<string, { code: string; valueCode: string | null; family: boolean }>;
  labels: [string, ...string[]];
}

/** Concept labels the KG can use: lexicon canonicals whose yes/no feature exists, plus label-derived features. */
export function conceptVocabulary(index: ConceptIndex): Vocabulary | null {
  const codes: Vocabulary['codes'] = new Map();
  for (const [code, ev] of index.evidence) {
    if (featureFor(index, code, null) !== undefined) codes.set(ev.canonical, { code, valueCode: null, family: ev.context === 'family' });
  }
  for (const f of index.snapshot.features) {
    if (f.code && !index.evidence.has(f.code) && !f.text.includes('?') && f.text.length <= 80 && !codes.has(f.text)) codes.set(f.text, { code: f.code, valueCode: f.valueCode, family: false });
  }
  const labels = [...codes.keys()].sort();
  if (labels.length === 0) return null;
  return { lines: labels.map((l) => `- ${l}`).join('\n'), codes, labels: labels as [string, ...string[]] };
}

function replySchema(labels: [string, ...string[]]) {
  return z.object({
    findings: z
      .array(z.object({
        text: z.string().min(1).max(300),
        concept: z.enum(labels).nullable(),
        assertion: z.enum(['present', 'absent', 'possible', 'hypothetical']),
        experiencer: z.enum(['patient', 'family', 'other']),
      }))
      .max(100),
    age: z.number().min(0).max(130).nullable(),
    sex: z.enum(['M', 'F']).nullable(),
  });
}

export class LlmDecomposer {
  private readonly vocabularies = new WeakMap<KgSnapshot, { vocab: Vocabulary | null; schema: ReturnType<typeof replySchema> | null }>();
  constructor(private readonly deps: LlmDecomposerDeps) {}

  async decompose(
    ctx: { snapshot: KgSnapshot; lexicon: ConceptLexicon | null; budget: LlmBudget | null; signal: AbortSignal | null },
    text: string,
  ): Promise<Result<LlmDecomposition, LlmFailure | { kind: 'no-vocabulary'; message: string }>> {
    const v = this.vocabularyFor(ctx.snapshot, ctx.lexicon);
    if (!v.vocab || !v.schema) return err({ kind: 'no-vocabulary', message: 'the KG has no concept vocabulary to decompose into' });
    const res = await completeJson({
      chat: this.deps.chat,
      prompt: this.deps.prompt.fill({ patient: text, vocabulary: v.vocab.lines }),
      schema: v.schema,
      timeoutMs: this.deps.timeoutMs,
      budget: ctx.budget,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    if (!res.ok) return res;
    const codes = v.vocab.codes;
    const findings = res.value.findings.map((f): InputFinding => {
      const named = f.concept !== null ? codes.get(f.concept) : undefined;
      // A relative's condition only keeps a family-history concept; otherwise its words go to the concept layer.
      const coded = named && (f.experiencer === 'family') === named.family ? named : undefined;
      return {
        text: coded ? f.concept! : f.text,
        polarity: f.assertion === 'absent' ? 'absent' : 'present',
        code: coded?.code ?? null,
        valueCode: coded?.valueCode ?? null,
        assertion: f.assertion,
        experiencer: f.experiencer,
        cue: 'llm',
      };
    });
    // Uncertain, hypothetical and other people's findings stay in the trace but match nothing.
    return ok({ findings: findings.map((f) => (f.assertion === 'possible' || f.assertion === 'hypothetical' || f.experiencer === 'other' ? { ...f, code: null, valueCode: null } : f)), demographics: { age: res.value.age, sex: res.value.sex } });
  }

  private vocabularyFor(snapshot: KgSnapshot, lexicon: ConceptLexicon | null) {
    let v = this.vocabularies.get(snapshot);
    if (!v) {
      const vocab = conceptVocabulary(conceptIndexFor(snapshot, lexicon));
      v = { vocab, schema: vocab ? replySchema(vocab.labels) : null };
      this.vocabularies.set(snapshot, v);
    }
    return v;
  }
}
