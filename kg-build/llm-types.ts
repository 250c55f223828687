import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ResponseCache } from '../src/adapters/llm/response-cache.js';
import { completeJson } from '../src/adapters/llm/structured.js';
import type { z } from 'zod';
import { LlmOutputError, ServiceUnavailableError } from '../src/errors.js';
import { loadPrompt, type PromptValue } from '../src/adapters/llm/prompts.js';

/** The chat model as the build uses it: replies validated (one repair) and cached on disk by content hash. */
export interface BuildLlm {
  chat: BaseChatModel;
  cache: ResponseCache | null;
  timeoutMs: number;
  /** Directory of prompt files; default the project's prompts/. */
  promptsDir?: string;
  /**
   * Calls in flight per stage (default 4). An in-process model answers one call at a time, so
   * the build asks it one at a time: queued calls would spend their timeout waiting.
   */
  concurrency?: number;
}

/** Fills `prompts/<name>.md` and asks for JSON; an invalid reply after the repair throws the adapter's typed error. */
export async function askJson<T>(llm: BuildLlm, name: string, values: Record<string, PromptValue>, schema: z.ZodType<T>): Promise<T> {
  const prompt = await loadPrompt(name, llm.promptsDir ? { dir: llm.promptsDir } : {});
  const res = await completeJson({ chat: llm.chat, prompt: prompt.fill(values), schema, timeoutMs: llm.timeoutMs, ...(llm.cache ? { cache: llm.cache } : {}) });
  if (!res.ok) {
    const e = res.error;
    // Name the prompt: "which of the build's LLM calls failed" is what a user needs to know.
    throw e.kind === 'invalid' ? new LlmOutputError(`prompt ${name}: ${e.message}`, { cause: e.error }) : new ServiceUnavailableError('llm', `prompt ${name}: ${e.message}`, { cause: e.error });
  }
  return res.value;
}
