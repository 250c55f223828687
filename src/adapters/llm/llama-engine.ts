import { access } from 'node:fs/promises';
import { getLlama, LlamaChat, LlamaLogLevel, LlamaText, type ChatHistoryItem, type Llama, type LlamaContext, type LlamaGrammar, type LlamaModel } from 'node-llama-cpp';
import { ConfigError, LocalModelError, ServiceUnavailableError } from '../../errors.js';
import type { GrammarSchema } from './grammar-schema.js';
import { compactJsonGbnf, GRAMMAR_END } from './json-gbnf.js';
import type { LocalEngine, LocalGenerateOptions, LocalGeneration, LocalModelSettings, LocalTurn } from './local-engine.js';

/**
 * node-llama-cpp behind the LocalEngine seam. The runtime comes from the prebuilt binaries of
 * its npm optional packages (@node-llama-cpp/linux-x64, ...): `build: 'never'` and
 * `skipDownload` make sure nothing is compiled or fetched at run time (the machine may have no
 * route to GitHub, and a hospital machine should not fetch code while serving). CPU only:
 * `gpu: false` keeps the behaviour the same on every machine; a GPU build is an operator's choice.
 */
export type RuntimeLog = (level: 'warn' | 'error', message: string) => void;

/** Default sink for llama.cpp's warnings and errors: stderr, tagged (they are about the runtime, never the prompt). */
const toStderr: RuntimeLog = (level, message) => void process.stderr.write(`[llama.cpp ${level}] ${message}\n`);

export async function openLlamaEngine(s: LocalModelSettings, log: RuntimeLog = toStderr): Promise<LocalEngine> {
  try {
    await access(s.modelPath);
  } catch {
    throw new ConfigError(`DXGRAPH_LLM_MODEL: no GGUF file at ${s.modelPath} (npm run setup installs the default model; docs/llm.md)`);
  }
  let llama: Llama;
  try {
    llama = await getLlama({
      gpu: false, build: 'never', usePrebuiltBinaries: true, skipDownload: true, progressLogs: false,
      ...(s.threads > 0 ? { maxThreads: s.threads } : {}),
      // llama.cpp's own log lines describe the model and the context, never the prompt; only problems are passed on.
      logLevel: LlamaLogLevel.warn,
      logger: (level, message) => {
        if (level === LlamaLogLevel.error || level === LlamaLogLevel.fatal) log('error', message.trim());
        else if (level === LlamaLogLevel.warn) log('warn', message.trim());
      },
    });
  } catch (e) {
    throw new ServiceUnavailableError('llm', `node-llama-cpp has no usable prebuilt binary for this machine (${e instanceof Error ? e.name : 'error'}; docs/llm.md)`, { cause: e });
  }
  let model: LlamaModel;
  let context: LlamaContext;
  try {
    model = await llama.loadModel({ modelPath: s.modelPath, gpuLayers: 0 });
    context = await model.createContext({ contextSize: Math.min(s.contextSize, model.trainContextSize), ...(s.threads > 0 ? { threads: s.threads } : {}) });
  } catch (e) {
    await llama.dispose();
    throw new ConfigError(`DXGRAPH_LLM_MODEL: ${s.modelPath} could not be loaded as a GGUF model (${e instanceof Error ? e.message.slice(0, 200) : 'error'})`, { cause: e });
  }
  return new LlamaEngine(llama, model, context);
}

class LlamaEngine implements LocalEngine {
  private readonly chat: LlamaChat;
  /** Grammars compiled per schema: the diagnose schema is the same for every request on one KG. */
  private readonly grammars = new Map<string, LlamaGrammar>();

  constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
  ) {
    this.chat = new LlamaChat({ contextSequence: context.getSequence() });
  }

  async generate(history: LocalTurn[], opts: LocalGenerateOptions): Promise<LocalGeneration> {
    // The texts' tokens plus a margin for the chat template's role markers (a handful per turn).
    const promptTokens = this.model.tokenize(history.map((t) => t.text).join('\n')).length + 16 * history.length;
    // Let the runtime shift the context instead and the system prompt or the patient is silently dropped.
    if (promptTokens + opts.maxTokens > this.context.contextSize) {
      throw new LocalModelError(`local model: prompt (${promptTokens} tokens) + reply (${opts.maxTokens}) exceed the context of ${this.context.contextSize} tokens (DXGRAPH_LLM_CONTEXT)`);
    }
    const meter = this.chat.sequence.tokenMeter;
    const [in0, out0] = [meter.usedInputTokens, meter.usedOutputTokens];
    const t0 = performance.now();
    let firstToken: number | null = null;
    const res = await this.chat.generateResponse(history.map(toItem), {
      onToken: () => void (firstToken ??= performance.now()),
      ...(opts.grammar ? { grammar: await this.grammar(opts.grammar) } : {}),
      maxTokens: opts.maxTokens,
      temperature: 0, // build outputs are cached and diagnoses should be reproducible
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return {
      text: res.response,
      inputTokens: meter.usedInputTokens - in0,
      outputTokens: meter.usedOutputTokens - out0,
      promptMs: (firstToken ?? performance.now()) - t0,
      stoppedBy: res.metadata.stopReason === 'maxTokens' ? 'maxTokens' : 'end',
    };
  }

  private async grammar(schema: GrammarSchema): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let g = this.grammars.get(key);
    if (!g) {
      if (this.grammars.size >= 64) this.grammars.clear(); // schemas are per prompt and per KG: a handful in practice
      // Our compact-JSON grammar, not createGrammarForJsonSchema's: that one lets the model indent (json-gbnf.ts).
      g = await this.llama.createGrammar({ grammar: compactJsonGbnf(schema), stopGenerationTriggers: [LlamaText([GRAMMAR_END])], trimWhitespaceSuffix: true });
      this.grammars.set(key, g);
    }
    return g;
  }

  async dispose(): Promise<void> {
    this.chat.dispose();
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }
}

function toItem(t: LocalTurn): ChatHistoryItem {
  return t.role === 'model' ? { type: 'model', response: [t.text] } : { type: t.role, text: t.text };
}
