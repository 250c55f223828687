import type { GrammarSchema } from './grammar-schema.js';

/**
 * The narrow seam between dxgraph and an in-process model runtime: one generation over a
 * chat history, optionally constrained by a JSON-schema grammar. LocalChatModel (the LangChain
 * side) depends on this only; llama-engine.ts implements it with node-llama-cpp, and unit tests
 * pass a deterministic fake.
 */
export interface LocalTurn {
  role: 'system' | 'user' | 'model';
  text: string;
}

export interface LocalGenerateOptions {
  /** Constrains the output to this shape (grammar-schema.ts); null = free text. */
  grammar: GrammarSchema | null;
  maxTokens: number;
  signal?: AbortSignal;
}

export interface LocalGeneration {
  text: string;
  /** Prompt tokens the model evaluated for this call (a reused prefix costs none). */
  inputTokens: number;
  outputTokens: number;
  /** Time to the first reply token: prompt evaluation (and grammar set-up). */
  promptMs: number;
  /** 'maxTokens': cut off, the reply is probably incomplete JSON. */
  stoppedBy: 'end' | 'maxTokens';
}

export interface LocalEngine {
  generate(history: LocalTurn[], opts: LocalGenerateOptions): Promise<LocalGeneration>;
  dispose(): Promise<void>;
}

/** What is needed to open an engine; read from DXGRAPH_LLM_* (config.ts). */
export interface LocalModelSettings {
  /** The GGUF file. */
  modelPath: string;
  /** Context window in tokens (prompt + reply). */
  contextSize: number;
  /** CPU threads; 0 = the runtime's default (all cores). */
  threads: number;
  /** Reply tokens per call. */
  maxTokens: number;
}
