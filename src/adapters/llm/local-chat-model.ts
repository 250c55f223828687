import { BaseChatModel, type BaseChatModelCallOptions } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { DxError, LocalModelError } from '../../errors.js';
import { DEFAULT_GRAMMAR_CAPS, toGrammarSchema, type GrammarCaps, type GrammarSchema } from './grammar-schema.js';
import type { LocalEngine, LocalTurn } from './local-engine.js';

/**
 * An in-process model as a LangChain chat model, so every LLM stage (reasoner, build stages,
 * decomposer, knowledge filter) takes it where it takes the OpenAI-compatible one: same prompts,
 * same schemas, same completeJson validation and repair. What differs is that the JSON schema
 * completeJson sends in `ls_structured_output_format` (LangChain's own call option for "this call
 * wants structured output"; ChatOpenAI only traces it) becomes a generation grammar here.
 *
 * The engine opens on first use, never in the constructor. Calls run one at a time: a context
 * holds one conversation, and on a few CPU cores parallel generation would not be faster.
 */
export interface LocalChatModelFields {
  /** Reported as the model that answered (cache key, DiagnoseResult.model). */
  model: string;
  /** Opens the runtime and loads the weights (llama-engine.ts; a fake in unit tests). */
  open: () => Promise<LocalEngine>;
  maxTokens: number;
  caps?: GrammarCaps;
}

/** Totals since the model was opened, for the bench's tokens per second (no prompt text). */
export interface LocalUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Wall time spent generating (queue waits excluded), prompt evaluation included. */
  generationMs: number;
  /** Of which prompt evaluation (to the first reply token). */
  promptMs: number;
  /** Replies cut at maxTokens. */
  truncated: number;
}

export class LocalChatModel extends BaseChatModel<BaseChatModelCallOptions> {
  readonly model: string;
  private readonly fields: LocalChatModelFields;
  private engine: Promise<LocalEngine> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly totals: LocalUsage = { calls: 0, inputTokens: 0, outputTokens: 0, generationMs: 0, promptMs: 0, truncated: 0 };

  constructor(fields: LocalChatModelFields) {
    super({});
    this.fields = fields;
    this.model = fields.model;
  }

  _llmType(): string {
    return 'llama.cpp';
  }

  /** Open the engine now (the server does at start, so a bad model path fails there and not per request). */
  async load(): Promise<void> {
    await this.opened();
  }

  /** Whether a reply asked for with this JSON Schema is generated under its grammar (completeJson then leaves the schema out of the prompt). */
  enforcesJsonSchema(schema: unknown): boolean {
    return grammarFor(schema, this.fields.caps ?? DEFAULT_GRAMMAR_CAPS) !== null;
  }

  usage(): LocalUsage {
    return { ...this.totals };
  }

  async dispose(): Promise<void> {
    const e = this.engine;
    this.engine = null;
    if (e) await (await e).dispose();
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const history = messages.map(toTurn);
    const grammar = grammarFor(options.ls_structured_output_format?.schema, this.fields.caps ?? DEFAULT_GRAMMAR_CAPS);
    const signal = options.signal;
    const run = this.queue.then(() => this.generateNow(history, grammar, signal));
    this.queue = run.catch(() => undefined); // the next call waits for this one, whatever its outcome
    const text = await run;
    return { generations: [{ text, message: new AIMessage(text) }] };
  }

  private async generateNow(history: LocalTurn[], grammar: GrammarSchema | null, signal: AbortSignal | undefined): Promise<string> {
    signal?.throwIfAborted(); // gave up while queued
    const engine = await this.opened();
    const t0 = performance.now();
    try {
      const g = await engine.generate(history, { grammar, maxTokens: this.fields.maxTokens, ...(signal ? { signal } : {}) });
      this.totals.calls++;
      this.totals.inputTokens += g.inputTokens;
      this.totals.outputTokens += g.outputTokens;
      this.totals.promptMs += g.promptMs;
      if (g.stoppedBy === 'maxTokens') this.totals.truncated++;
      return g.text;
    } catch (e) {
      if (signal?.aborted) throw signal.reason; // completeJson reads the signal: timeout or budget
      if (e instanceof DxError) throw e;
      // The runtime's message is about the runtime, but keep only its type: one rule for all LLM errors.
      throw new LocalModelError(`local model failed (${e instanceof Error ? e.name : 'error'})`, { cause: e });
    } finally {
      this.totals.generationMs += performance.now() - t0;
    }
  }

  private opened(): Promise<LocalEngine> {
    if (!this.engine) {
      this.engine = this.fields.open();
      this.engine.catch(() => (this.engine = null)); // a failed load is retried by the next call
    }
    return this.engine;
  }
}

function toTurn(m: BaseMessage): LocalTurn {
  const type = m.getType();
  const role = type === 'system' ? 'system' : type === 'ai' ? 'model' : 'user';
  return { role, text: m.text };
}

function grammarFor(schema: unknown, caps: GrammarCaps): GrammarSchema | null {
  if (schema === undefined || schema === null) return null;
  const g = toGrammarSchema(schema, caps);
  return g.ok ? g.value : null; // a schema the grammar cannot express: free text, still validated after
}
