import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { OpenAIEmbeddings } from '@langchain/openai';
import { loadConfig } from '../../src/config.js';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { ResponseCache } from '../../src/adapters/llm/response-cache.js';
import { completeJson } from '../../src/adapters/llm/structured.js';
import { LlmOutputError, ServiceUnavailableError } from '../../src/errors.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../support/fake-openai.js';

/** completeJson against a real local OpenAI-compatible HTTP server with scripted replies. */

const Diagnosis = z.object({
  diagnoses: z.array(z.object({ disease: z.string(), confidence: z.number().min(0).max(1) })).min(1),
});
const good = { diagnoses: [{ disease: 'Pneumonia', confidence: 0.7 }] };

describe('completeJson (LLM structured output, fake OpenAI server)', () => {
  let fake: FakeOpenAI;
  let dir: string;
  const start = async (replies: FakeReply[]) => {
    fake = await startFakeOpenAI({ replies });
    const config = loadConfig({ OPENAI_BASE_URL: fake.baseUrl, DXGRAPH_CHAT_MODEL: 'fake-model', DXGRAPH_LLM_TIMEOUT_MS: '5000' });
    return createChatModel(config, { maxRetries: 0 });
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-llm-'));
  });
  afterEach(async () => {
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('returns the validated value of a good reply (fenced JSON tolerated), in one request', async () => {
    const chat = await start([{ content: `Here you go:\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\`` }]);
    const res = await completeJson({ chat, prompt: 'Diagnose: cough and fever.', schema: Diagnosis });
    assert.ok(res.ok, JSON.stringify(res));
    assert.deepEqual(res.value, good);
    const reqs = fake.chatRequests();
    assert.equal(reqs.length, 1);
    assert.equal(reqs[0]!.body.model, 'fake-model');
    const userText = reqs[0]!.body.messages.at(-1).content as string;
    assert.match(userText, /Diagnose: cough and fever\./);
    assert.match(userText, /JSON Schema/); // the schema travels with the prompt
  });

  it('repairs a malformed reply with exactly one follow-up request carrying the error', async () => {
    const chat = await start([{ json: { diagnoses: [{ disease: 'Pneumonia', confidence: 'high' }] } }, { json: good }]);
    const res = await completeJson({ chat, prompt: 'Diagnose.', schema: Diagnosis });
    assert.ok(res.ok, JSON.stringify(res));
    assert.deepEqual(res.value, good);
    const reqs = fake.chatRequests();
    assert.equal(reqs.length, 2);
    const repair = reqs[1]!.body.messages as { role: string; content: string }[];
    assert.deepEqual(repair.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.match(repair[2]!.content, /confidence/); // the validation error names the bad field
  });

  it('gives up after one repair: malformed twice → invalid error result, no third call', async () => {
    const chat = await start([{ content: 'I think it is pneumonia.' }, { content: '{"diagnoses": [' }, { json: good }]);
    const res = await completeJson({ chat, prompt: 'Diagnose.', schema: Diagnosis });
    assert.ok(!res.ok);
    assert.equal(res.error.kind, 'invalid');
    assert.ok(res.error.error instanceof LlmOutputError);
    assert.match(res.error.message, /invalid after one repair/);
    assert.doesNotMatch(res.error.message, /pneumonia/i); // reply text never leaks into errors
    assert.equal(res.error.calls, 2);
    assert.equal(fake.chatRequests().length, 2);
  });

  it('a reply slower than the timeout → timeout error result within the timeout', async () => {
    const chat = await start([{ delayMs: 5000, json: good }]);
    const t0 = Date.now();
    const res = await completeJson({ chat, prompt: 'Diagnose.', schema: Diagnosis, timeoutMs: 300 });
    const elapsed = Date.now() - t0;
    assert.ok(!res.ok);
    assert.equal(res.error.kind, 'timeout');
    assert.ok(res.error.error instanceof ServiceUnavailableError);
    assert.ok(elapsed < 1500, `took ${elapsed} ms`); // timeout 300 ms, reply at 5000 ms
  });

  it('HTTP 500 and a closed port → unavailable error result', async () => {
    const chat = await start([{ status: 500 }]);
    const res = await completeJson({ chat, prompt: 'Diagnose.', schema: Diagnosis });
    assert.ok(!res.ok);
    assert.equal(res.error.kind, 'unavailable');

    const baseUrl = fake.baseUrl;
    await fake.close();
    const dead = createChatModel(loadConfig({ OPENAI_BASE_URL: baseUrl }), { maxRetries: 0 });
    const res2 = await completeJson({ chat: dead, prompt: 'Diagnose.', schema: Diagnosis, timeoutMs: 2000 });
    assert.ok(!res2.ok);
    assert.equal(res2.error.kind, 'unavailable');
  });

  it('a cache hit makes no second request; a different prompt misses', async () => {
    const chat = await start([{ json: good }, { json: { diagnoses: [{ disease: 'Asthma', confidence: 0.4 }] } }]);
    const cache = new ResponseCache(join(dir, 'cache'));
    const first = await completeJson({ chat, prompt: 'Diagnose A.', schema: Diagnosis, cache });
    const second = await completeJson({ chat, prompt: 'Diagnose A.', schema: Diagnosis, cache });
    assert.ok(first.ok && second.ok);
    assert.deepEqual(second.value, first.value);
    assert.equal(fake.chatRequests().length, 1);
    assert.equal((await readdir(join(dir, 'cache'))).length, 1);

    const other = await completeJson({ chat, prompt: 'Diagnose B.', schema: Diagnosis, cache });
    assert.ok(other.ok);
    assert.equal(other.value.diagnoses[0]!.disease, 'Asthma');
    assert.equal(fake.chatRequests().length, 2);
  });

  it('serves deterministic embeddings to OpenAIEmbeddings (base64 encoding honoured)', async () => {
    await start([]);
    const emb = new OpenAIEmbeddings({ model: 'fake-embed', apiKey: 'x', configuration: { baseURL: fake.baseUrl }, maxRetries: 0 });
    const [a, b, a2] = await emb.embedDocuments(['chest pain', 'rash', 'chest pain']);
    assert.equal(a!.length, 16);
    assert.deepEqual(a2, a);
    assert.notDeepEqual(b, a);
    assert.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-5);
  });
});
