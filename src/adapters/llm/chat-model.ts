import { basename } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatOpenAI } from '@langchain/openai';
import { DEFAULT_LOCAL_MODEL_PATH, type Config, type LlmConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { LocalChatModel } from './local-chat-model.js';
import type { LocalModelSettings } from './local-engine.js';

/**
 * The chat model the configuration names: any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama,
 * llama.cpp server, LM Studio; `llm.baseUrl` selects the server, `llm.model` the model), or with
 * DXGRAPH_LLM=local a GGUF model in this process (local-chat-model.ts). Retries are few because
 * the callers have their own fallback (the evidence reasoner, the statistical build path) and a
 * query must not hang on a dead endpoint.
 */
export interface ChatModelOptions {
  /** Client-level retries on 429/5xx/connection errors (default: `llm.maxRetries`, else 1). */
  maxRetries?: number;
  /** Per-request timeout; defaults to `llm.timeoutMs`. */
  timeoutMs?: number;
  /** Default 0: diagnosis and build outputs should be reproducible. */
  temperature?: number;
  /** Where an in-process model's runtime warnings go (the first caller's logger is kept); default stderr. */
  logger?: Logger;
}

export function createChatModel(config: Pick<Config, 'llm'>, opts: ChatModelOptions = {}): BaseChatModel {
  const { llm } = config;
  if (llm.provider === 'local') return sharedLocalModel(localSettings(llm), opts.logger);
  return new ChatOpenAI({
    model: llm.model,
    apiKey: llm.apiKey,
    ...(llm.baseUrl ? { configuration: { baseURL: llm.baseUrl } } : {}),
    timeout: opts.timeoutMs ?? llm.timeoutMs,
    maxRetries: opts.maxRetries ?? llm.maxRetries ?? 1,
    temperature: opts.temperature ?? 0,
  });
}

/** The name a client sees as the model that answered: the GGUF file's name, or the endpoint's model. */
export function chatModelLabel(llm: LlmConfig): string {
  return llm.provider === 'local' ? `${basename(localSettings(llm).modelPath, '.gguf')} (local)` : llm.model;
}

function localSettings(llm: LlmConfig): LocalModelSettings {
  return llm.local ?? { modelPath: DEFAULT_LOCAL_MODEL_PATH, contextSize: 8192, threads: 1, maxTokens: 768 };
}

/**
 * One in-process model per GGUF and settings: the server asks for a chat model per LLM stage
 * (reasoner, decomposer, knowledge filter), and each would otherwise load its own copy of the
 * weights and its own context. Calls to the shared one are serialised (local-chat-model.ts).
 */
const shared = new Map<string, LocalChatModel>();

export function sharedLocalModel(s: LocalModelSettings, logger?: Logger): LocalChatModel {
  const key = JSON.stringify(s);
  let m = shared.get(key);
  if (!m) {
    m = new LocalChatModel({
      model: basename(s.modelPath, '.gguf'),
      maxTokens: s.maxTokens,
      // Imported on first use: node-llama-cpp loads a native runtime that OpenAI-only setups never need.
      open: async () => {
        const { openLlamaEngine } = await import('./llama-engine.js');
        return openLlamaEngine(s, logger ? (level, message) => logger[level]({ source: 'llama.cpp' }, message) : undefined);
      },
    });
    shared.set(key, m);
  }
  return m;
}

/** Unload every shared local model (server shutdown, tests, the bench between phases). */
export async function disposeLocalModels(): Promise<void> {
  const models = [...shared.values()];
  shared.clear();
  await Promise.all(models.map((m) => m.dispose()));
}

/** The shared local model's usage figures when DXGRAPH_LLM=local (bench), else null. */
export function localModelOf(chat: BaseChatModel): LocalChatModel | null {
  return chat instanceof LocalChatModel ? chat : null;
}
