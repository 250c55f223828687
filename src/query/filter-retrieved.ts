/**
 * FIND §3.3.2 knowledge filter on the query path (LLM only): each retrieved record is kept
 * only when the LLM judges it supports the patient's diagnosis (src/gate/knowledge-filter.ts).
 * Without an LLM the records pass untouched. A verdict the LLM could not give keeps the record
 * and marks the answer degraded, never fails the request.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { PromptFile } from '../adapters/llm/prompts.js';
import { filterKnowledge, type KnowledgeFilterOptions } from '../gate/knowledge-filter.js';
import type { RetrievedRecord } from './contracts.js';

export interface KnowledgeFilterDeps {
  chat: BaseChatModel;
  prompt: PromptFile;
  options?: Partial<KnowledgeFilterOptions>;
}

export async function filterRetrieved(
  deps: KnowledgeFilterDeps | null,
  input: { patient: string; records: RetrievedRecord[] },
): Promise<{ records: RetrievedRecord[]; degraded: boolean }> {
  if (!deps || input.records.length === 0) return { records: input.records, degraded: false };
  const r = await filterKnowledge(input, { chat: deps.chat, prompt: deps.prompt }, deps.options ?? {});
  return { records: r.kept, degraded: r.degraded };
}
