/**
 * FIND §3.3.2 differential-diagnosis guided knowledge filtering (eq. 8-9; ICA-RAG eq. 10-11,
 * prompt Table 9 → prompts/knowledge-filter.md): for each retrieved record the LLM answers
 * {"status": true|false}; only supported records are kept. LLM only. A record whose verdict
 * cannot be obtained (timeout, outage, invalid JSON after the one repair) is KEPT and the
 * result marked degraded: dropping evidence because the judge failed would be worse.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import type { LlmBudget } from '../adapters/llm/budget.js';
import { completeJson, type LlmFailureKind } from '../adapters/llm/structured.js';
import { loadPrompt, type PromptFile } from '../adapters/llm/prompts.js';
import { mapWithConcurrency } from './concurrency.js';
import { renderSystemAndUser } from './prompt-parts.js';

/** Models often answer "True"/"False" as strings (the ICA-RAG template asks for "True"); accept both. */
export const FilterVerdictSchema = z.object({
  status: z.union([z.boolean(), z.enum(['true', 'false', 'True', 'False'])]).transform((v) => v === true || v === 'true' || v === 'True'),
});

export interface FilterableRecord {
  id: string;
  diagnosis: string;
  text: string;
}

export interface FilterVerdict {
  id: string;
  /** null when the LLM gave no usable verdict (record kept). */
  supports: boolean | null;
  failure: LlmFailureKind | null;
}

export interface KnowledgeFilterResult<R extends FilterableRecord> {
  kept: R[];
  verdicts: FilterVerdict[];
  degraded: boolean;
}

export interface KnowledgeFilterOptions {
  timeoutMs: number;
  concurrency: number;
  /** Record text is clipped so the prompt stays bounded whatever was retrieved. */
  maxDocumentChars: number;
}

export const DEFAULT_FILTER_OPTIONS: KnowledgeFilterOptions = { timeoutMs: 30000, concurrency: 4, maxDocumentChars: 2000 };

export function loadKnowledgeFilterPrompt(opts: { dir?: string } = {}): Promise<PromptFile> {
  return loadPrompt('knowledge-filter', opts);
}

/**
 * `budget` (the request's, or a slice of it) bounds the whole filter: once its time or calls
 * are spent, or its client is gone, the remaining records are kept unjudged at no cost.
 */
export async function filterKnowledge<R extends FilterableRecord>(
  input: { patient: string; records: readonly R[] },
  services: { chat: BaseChatModel; prompt: PromptFile },
  options: Partial<KnowledgeFilterOptions> & { budget?: LlmBudget | null } = {},
): Promise<KnowledgeFilterResult<R>> {
  const { budget, ...rest } = options;
  const opts = { ...DEFAULT_FILTER_OPTIONS, ...rest };
  const verdicts = await mapWithConcurrency(input.records, Math.max(1, opts.concurrency), async (record): Promise<FilterVerdict> => {
    const document = `Confirmed diagnosis: ${record.diagnosis}\n${record.text.slice(0, opts.maxDocumentChars)}`;
    const { system, user } = renderSystemAndUser(services.prompt, { patient: input.patient, document });
    const r = await completeJson({ chat: services.chat, system, prompt: user, schema: FilterVerdictSchema, timeoutMs: opts.timeoutMs, budget: budget ?? null });
    return r.ok ? { id: record.id, supports: r.value.status, failure: null } : { id: record.id, supports: null, failure: r.error.kind };
  });
  return {
    kept: input.records.filter((_, i) => verdicts[i]!.supports !== false),
    verdicts,
    degraded: verdicts.some((v) => v.supports === null),
  };
}
