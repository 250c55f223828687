import assert from 'node:assert/strict';
import { z } from 'zod';
import { chatModelLabel, createChatModel } from '../../src/adapters/llm/chat-model.js';
import { toGrammarSchema } from '../../src/adapters/llm/grammar-schema.js';
import { LocalChatModel } from '../../src/adapters/llm/local-chat-model.js';
import type { LocalEngine, LocalGenerateOptions, LocalTurn } from '../../src/adapters/llm/local-engine.js';
import { completeJson } from '../../src/adapters/llm/structured.js';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { llmAnswerSchema } from '../../src/reasoners/llm-reasoner.js';
import { startFakeOpenAI } from '../support/fake-openai.js';

/** DXGRAPH_LLM=local behind the chat-model seam, with a deterministic fake engine (the real model runs in test/int/local-llm.test.ts). */

class FakeEngine implements LocalEngine {
  calls: { history: LocalTurn[]; opts: LocalGenerateOptions }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly replies: (string | Error)[]) {}
  async generate(history: LocalTurn[], opts: LocalGenerateOptions) {
    this.calls.push({ history, opts });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 5));
    this.inFlight--;
    const next = this.replies.shift() ?? '{}';
    if (next instanceof Error) throw next;
    return { text: next, inputTokens: 10, outputTokens: 5, promptMs: 1, stoppedBy: 'end' as const };
  }
  async dispose() {}
}

const Answer = z.object({ disease: z.enum(['Pneumonia', 'Bronchitis']), confidence: z.number().min(0).max(1).optional(), note: z.string().max(1000) });
const good = JSON.stringify({ disease: 'Pneumonia', confidence: 0.7, note: 'fever' });

function localModel(engine: FakeEngine, opens = { n: 0 }) {
  return new LocalChatModel({ model: 'fake-gguf', maxTokens: 64, open: async () => (opens.n++, engine) });
}

describe('local LLM (DXGRAPH_LLM=local) with a fake engine', () => {
  it('turns the prompt schema into a grammar: every key written, [0,1] numbers as steps, strings and arrays capped', () => {
    const g = toGrammarSchema(z.toJSONSchema(llmAnswerSchema(['A', 'B']), { io: 'input' }), { stringChars: 100, arrayItems: 3 });
    assert.ok(g.ok);
    const v = g.value as any;
    assert.deepEqual(v.required, ['diagnoses', 'followUpQuestions', 'treatments', 'medications', 'narrative']);
    const item = v.properties.diagnoses.items;
    assert.deepEqual(item.required, ['disease', 'explanation', 'confidence']); // confidence is optional in zod, written anyway
    assert.deepEqual(item.properties.disease.enum, ['A', 'B']);
    assert.deepEqual(item.properties.confidence.enum, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    assert.equal(item.properties.explanation.maxLength, 100); // 4000 in the schema, capped
    assert.deepEqual([v.properties.diagnoses.minItems, v.properties.diagnoses.maxItems], [1, 3]);
    const nullable = toGrammarSchema(z.toJSONSchema(z.object({ sex: z.enum(['M', 'F']).nullable() })));
    assert.ok(nullable.ok);
    assert.deepEqual((nullable.value as any).properties.sex.oneOf, [{ enum: ['M', 'F'] }, { type: 'null' }]);
    assert.equal(toGrammarSchema({ type: 'object', properties: { x: { type: 'tuple' } } }).ok, false);
  });

  it('answers completeJson with the grammar of the schema, the system and user turns, and counts tokens', async () => {
    const engine = new FakeEngine([good]);
    const opens = { n: 0 };
    const chat = localModel(engine, opens);
    assert.equal(opens.n, 0, 'no I/O in the constructor');
    const res = await completeJson({ chat, system: 'sys', prompt: 'patient text', schema: Answer });
    assert.ok(res.ok, JSON.stringify(res));
    assert.equal(res.value.disease, 'Pneumonia');
    const call = engine.calls[0]!;
    assert.deepEqual(call.history.map((t) => t.role), ['system', 'user']);
    assert.equal((call.opts.grammar as any).properties.disease.enum.length, 2);
    assert.equal(call.opts.maxTokens, 64);
    assert.deepEqual(chat.usage(), { calls: 1, inputTokens: 10, outputTokens: 5, generationMs: chat.usage().generationMs, promptMs: 1, truncated: 0 });
    assert.equal(opens.n, 1);
  });

  it('leaves the JSON Schema out of the prompt when the grammar writes its shape, keeps it when the grammar cannot, and for an endpoint', async () => {
    const engine = new FakeEngine([good, '{"x":1}']);
    const chat = localModel(engine);
    assert.ok((await completeJson({ chat, prompt: 'patient text', schema: Answer })).ok);
    assert.equal(engine.calls[0]!.history.at(-1)!.text, 'patient text\n\nRespond with a single JSON value only, no prose.');
    // z.any() has no grammar: generation is free, so the model is shown the schema.
    assert.ok((await completeJson({ chat, prompt: 'p', schema: z.object({ x: z.any() }) })).ok);
    assert.equal(engine.calls[1]!.opts.grammar, null);
    assert.match(engine.calls[1]!.history.at(-1)!.text, /conforming to this JSON Schema:\n\{"\$schema"/);
    const fake = await startFakeOpenAI({ replies: [{ content: good }] });
    try {
      const openai = createChatModel(loadConfig({ OPENAI_BASE_URL: fake.baseUrl, DXGRAPH_CHAT_MODEL: 'fake-model' }), { maxRetries: 0 });
      assert.ok((await completeJson({ chat: openai, prompt: 'p', schema: Answer })).ok);
      assert.match(JSON.stringify(fake.chatRequests()[0]!.body), /conforming to this JSON Schema/);
    } finally {
      await fake.close();
    }
  });

  it('holds a model whose advice is not shown to empty treatment and medication lists', () => {
    const g = toGrammarSchema(z.toJSONSchema(llmAnswerSchema(['A', 'B'], { advice: false }), { io: 'input' }));
    assert.ok(g.ok);
    const v = g.value as any;
    assert.deepEqual([v.properties.treatments.maxItems, v.properties.medications.maxItems], [0, 0]);
    assert.equal(llmAnswerSchema(['A']).safeParse({ diagnoses: [{ disease: 'A', explanation: '' }], followUpQuestions: [], treatments: ['rest'], medications: [], narrative: '' }).success, true);
    assert.equal(llmAnswerSchema(['A'], { advice: false }).safeParse({ diagnoses: [{ disease: 'A', explanation: '' }], followUpQuestions: [], treatments: ['rest'], medications: [], narrative: '' }).success, false);
  });

  it('repairs once with the model turn in the history, then fails as invalid', async () => {
    const engine = new FakeEngine(['{"disease":"Flu","note":""}', '{"disease":"Flu","note":""}']);
    const res = await completeJson({ chat: localModel(engine), prompt: 'p', schema: Answer });
    assert.ok(!res.ok);
    assert.equal(res.error.kind, 'invalid');
    assert.deepEqual(engine.calls[1]!.history.map((t) => t.role), ['user', 'model', 'user']);
    assert.doesNotMatch(engine.calls[1]!.history[2]!.text, /schema above/, 'the schema was not shown to this model');
  });

  it('runs one generation at a time and drops a call whose caller gave up while it waited', async () => {
    const engine = new FakeEngine([good, good, good]);
    const chat = localModel(engine);
    const gone = new AbortController();
    const runs = [completeJson({ chat, prompt: 'a', schema: Answer }), completeJson({ chat, prompt: 'b', schema: Answer, signal: gone.signal }), completeJson({ chat, prompt: 'c', schema: Answer })] as const;
    gone.abort();
    const [a, b, c] = await Promise.all(runs);
    assert.ok(a.ok && c.ok);
    assert.ok(!b.ok);
    assert.equal(b.error.kind, 'timeout');
    assert.equal(engine.maxInFlight, 1);
    assert.equal(engine.calls.length, 2);
  });

  it('reports a runtime failure as a category, never its message (it could quote the prompt)', async () => {
    const engine = new FakeEngine([new Error('llama_decode failed on "chest pain since Tuesday"')]);
    const res = await completeJson({ chat: localModel(engine), prompt: 'p', schema: Answer });
    assert.ok(!res.ok);
    assert.equal(res.error.kind, 'unavailable');
    assert.equal(res.error.message, 'LLM endpoint failed: local model failed');
  });

  it('retries opening after a failed load', async () => {
    let n = 0;
    const chat = new LocalChatModel({ model: 'm', maxTokens: 8, open: async () => { if (n++ === 0) throw new ConfigError('DXGRAPH_LLM_MODEL: no GGUF file'); return new FakeEngine([good]); } });
    await assert.rejects(chat.load(), ConfigError);
    await chat.load();
    assert.equal(n, 2);
  });

  it('a missing GGUF is a ConfigError naming DXGRAPH_LLM_MODEL, before the runtime loads', async () => {
    const { openLlamaEngine } = await import('../../src/adapters/llm/llama-engine.js');
    await assert.rejects(openLlamaEngine({ modelPath: '/nonexistent/model.gguf', contextSize: 1024, threads: 1, maxTokens: 16 }), (e: unknown) => {
      // By name: the dynamic import may give this file a second copy of errors.ts under mocha + tsx.
      assert.equal((e as Error).name, 'ConfigError');
      assert.match((e as Error).message, /^DXGRAPH_LLM_MODEL: no GGUF file at \/nonexistent\/model\.gguf/);
      return true;
    });
  });

  it('config: DXGRAPH_LLM=local enables the in-process model, without LLM decomposition unless asked', () => {
    const c = loadConfig({ DXGRAPH_LLM: 'local', DXGRAPH_LLM_MODEL: '/models/x/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf', DXGRAPH_LLM_CONTEXT: '2048' });
    assert.equal(c.llm.enabled, true);
    assert.equal(c.llm.provider, 'local');
    assert.deepEqual(c.llm.local, { modelPath: '/models/x/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf', contextSize: 2048, threads: 1, maxTokens: 768 });
    assert.equal(c.llm.decompose, false);
    assert.equal(loadConfig({ DXGRAPH_LLM: 'local', DXGRAPH_LLM_DECOMPOSE: 'on' }).llm.decompose, true);
    assert.equal(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }).llm.decompose, true);
    assert.equal(chatModelLabel(c.llm), 'Qwen2.5-0.5B-Instruct-Q4_K_M (local)');
    assert.ok(createChatModel(c) === createChatModel(c), 'one shared model per GGUF');
    assert.throws(() => loadConfig({ DXGRAPH_LLM: 'local', DXGRAPH_LLM_MODEL: '/models/x.bin' }), /DXGRAPH_LLM_MODEL: must name a \.gguf file/);
    assert.throws(() => loadConfig({ DXGRAPH_LLM_THREADS: '-1' }), /DXGRAPH_LLM_THREADS/);
  });

  it('the OpenAI-compatible request is unchanged: the structured-output hint is not sent', async () => {
    const fake = await startFakeOpenAI({ replies: [{ content: good }] });
    try {
      const chat = createChatModel(loadConfig({ OPENAI_BASE_URL: fake.baseUrl, DXGRAPH_CHAT_MODEL: 'fake-model' }), { maxRetries: 0 });
      const res = await completeJson({ chat, prompt: 'p', schema: Answer });
      assert.ok(res.ok);
      const body = fake.chatRequests()[0]!.body as Record<string, unknown>;
      assert.equal(body.response_format, undefined);
      assert.ok(!JSON.stringify(body).includes('ls_structured_output_format'));
    } finally {
      await fake.close();
    }
  });
});

describe('dxgraph ask names the model that answered', () => {
  it('prints the model beside the reasoner, and nothing when no model answered', async () => {
    const { formatResult } = await import('../../src/cli/query-commands.js');
    const { fakeResult } = await import('./http-fakes.js');
    const { DEFAULT_OPTIONS } = await import('../../src/query/contracts.js');
    const base = fakeResult({ text: 'cough', findings: [], age: null, sex: null, options: { ...DEFAULT_OPTIONS, reasoner: 'llm' } });
    assert.match(formatResult({ ...base, model: 'SmolLM2-135M-Instruct.Q8_0 (local)' }), /Differential \(reasoner: llm, model SmolLM2-135M-Instruct\.Q8_0 \(local\)\)/);
    assert.match(formatResult({ ...base, model: null, degraded: true }), /Differential \(reasoner: llm, degraded\)/);
  });
});
