/**
 * FIND §3.3.2 knowledge filter on the query path (LLM only): each retrieved record is kept
 * only when the LLM judges it supports the patient's diagnosis (src/gate/knowledge-filter.ts).
 * Without an LLM the records pass untouched. A verdict the LLM could not give keeps the record
 * and marks the answer degraded, never fails the request.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { LlmBudget } from '../adapters/llm/budget.js';
import type { PromptFile } from '../adapters/llm/prompts.js';
import { filterKnowledge, type KnowledgeFilterOptions } from '../gate/knowledge-filter.js';
import type { RetrievedRecord } from './contracts.js';

export interface KnowledgeFilterDeps {
  chat: BaseChatModel;
  prompt: PromptFile;
  options?: Partial<KnowledgeFilterOptions>;
}

/**
 * The filter may spend at most this share of the request's LLM time and leaves this many calls
 * (one answer + one repair) for the reasoner, so a hung endpoint still lets it answer or degrade.
 */
export const FILTER_BUDGET_SHARE = 0.5;
export const REASONER_RESERVED_CALLS = 2;

export async function filterRetrieved(
  deps: KnowledgeFilterDeps | null,
  input: { patient: string; records: RetrievedRecord[]; budget?: LlmBudget | null },
): Promise<{ records: RetrievedRecord[]; degraded: boolean }> {
  if (!deps || input.records.length === 0) return { records: input.records, degraded: false };
  const budget = input.budget ? input.budget.slice({ share: FILTER_BUDGET_SHARE, maxCalls: input.budget.limits.maxCalls - input.budget.callsUsed - REASONER_RESERVED_CALLS }) : null;
  const r = await filterKnowledge({ patient: input.patient, records: input.records }, { chat: deps.chat, prompt: deps.prompt }, { ...(deps.options ?? {}), budget });
  return { records: r.kept, degraded: r.degraded };
}
