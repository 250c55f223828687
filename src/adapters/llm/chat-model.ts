import { ChatOpenAI } from '@langchain/openai';
import type { Config } from '../../config.js';

/**
 * The chat model for any OpenAI-compatible endpoint (OpenAI, Azure-compatible proxies,
 * vLLM, Ollama, LM Studio): `llm.baseUrl` selects the server, `llm.model` the model.
 * Retries are few because the callers have their own fallback (the evidence reasoner,
 * the statistical build path) and a query must not hang on a dead endpoint.
 */
export interface ChatModelOptions {
  /** Client-level retries on 429/5xx/connection errors (default 1). */
  maxRetries?: number;
  /** Per-request timeout; defaults to `llm.timeoutMs`. */
  timeoutMs?: number;
  /** Default 0: diagnosis and build outputs should be reproducible. */
  temperature?: number;
}

export function createChatModel(config: Pick<Config, 'llm'>, opts: ChatModelOptions = {}): ChatOpenAI {
  const { llm } = config;
  return new ChatOpenAI({
    model: llm.model,
    apiKey: llm.apiKey,
    ...(llm.baseUrl ? { configuration: { baseURL: llm.baseUrl } } : {}),
    timeout: opts.timeoutMs ?? llm.timeoutMs,
    maxRetries: opts.maxRetries ?? 1,
    temperature: opts.temperature ?? 0,
  });
}
