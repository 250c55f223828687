import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { ResponseCache } from '../../src/adapters/llm/response-cache.js';
import { LlmOutputError } from '../../src/errors.js';
import { aggregateHierarchy } from '../../kg-build/aggregate-hierarchy.js';
import { augmentFeatures } from '../../kg-build/augment-features.js';
import { llmHierarchy } from '../../kg-build/hierarchy-llm.js';
import { llmKeyDifferences } from '../../kg-build/key-differences-llm.js';
import type { BuildLlm } from '../../kg-build/llm-types.js';
import { blockFixture } from '../support/memory-source.js';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai.js';

const embeddings = new HashedEmbedder();
const promptOf = (r: RecordedRequest): string => (r.body.messages as { content: string }[]).map((m) => m.content).join('\n');

function llmFor(fake: FakeOpenAI, cacheDir: string | null = null): BuildLlm {
  const chat = createChatModel({ llm: { enabled: true, model: 'fake-model', apiKey: 'test', baseUrl: fake.baseUrl, timeoutMs: 5000 } }, { maxRetries: 0 });
  return { chat, cache: cacheDir ? new ResponseCache(cacheDir) : null, timeoutMs: 5000 };
}

describe('kg-build LLM stages against a local OpenAI-compatible server', () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(async () => fake.close());

  const input = blockFixture(2, 3);
  const sizes = { subcategories: 2, categories: 1 } as const;
  const topics = {
    categories: [
      {
        name: 'Block diseases',
        subcategories: [
          { name: 'Block zero', description: 'block 0 sign 0, block 0 sign 1', diseases: ['Block 0 disease 0', 'block 0 disease 1'] },
          { name: 'Block one', description: 'block 1 sign 0, block 1 sign 1', diseases: ['Block 1 disease 0'] },
          { name: 'Never used', description: 'nothing', diseases: ['No such disease'] },
        ],
      },
    ],
  };

  it('hierarchy: sends the paper topic prompt, uses the LLM topics, assigns the unlisted diseases by similarity, drops empty topics', async () => {
    fake.push({ json: topics });
    const h = await aggregateHierarchy(input, { mode: 'auto', sizes, llm: (i, s) => llmHierarchy({ ...i, llm: llmFor(fake), embeddings }, s) });
    assert.equal(h.mode, 'llm');
    const prompt = promptOf(fake.chatRequests()[0]!);
    assert.match(prompt, /Cluster the following diseases into multiple categories based on the similarity of their manifestations, affected locations, and other characteristics/);
    assert.match(prompt, /Block 1 disease 2: /);
    assert.deepEqual(h.subcategories.map((s) => s.name), ['Block zero', 'Block one']);
    assert.equal(h.subcategoryOf.get('dis:b0-d1'), 'sub:block-zero', 'listed by the LLM (any spelling)');
    assert.equal(h.subcategoryOf.get('dis:b0-d2'), 'sub:block-zero', 'unlisted, nearest topic by its manifestations');
    assert.equal(h.subcategoryOf.get('dis:b1-d2'), 'sub:block-one');
    assert.equal(h.categories.length, 1);
  });

  it('a malformed reply is repaired with one more call', async () => {
    fake.push({ content: 'Sure! Here are the categories: categories = block diseases' }, { json: topics });
    const h = await llmHierarchy({ ...input, llm: llmFor(fake), embeddings }, sizes);
    assert.equal(fake.chatRequests().length, 2);
    assert.match(promptOf(fake.chatRequests()[1]!), /could not be used/);
    assert.equal(h.subcategoryOf.size, 6);
  });

  it('a reply still invalid after the repair is rejected with a clear error naming the prompt', async () => {
    fake.push({ json: { categories: [] } }, { json: { topics: ['x'] } });
    await assert.rejects(llmHierarchy({ ...input, llm: llmFor(fake), embeddings }, sizes), (e: unknown) => {
      assert.ok(e instanceof LlmOutputError);
      assert.match(e.message, /prompt hierarchy-topics: LLM output still invalid after one repair attempt/);
      return true;
    });
    assert.equal(fake.chatRequests().length, 2);
  });

  it('augmentation: L4a features per disease, one node per phrase, cached on disk so a rebuild makes no call', async () => {
    const diseases = input.diseases.slice(0, 2);
    const reply = (r: RecordedRequest) => {
      const name = /disease "([^"]+)"/.exec(promptOf(r))![1]!;
      return { json: { features: [{ relation: 'has_symptom', feature: 'stiffness_or_pain_in_the_lower_back', prevalence: 0.6 }, { relation: 'has_sign', feature: `sign of ${name}`, prevalence: 0.3 }] } };
    };
    fake.push(reply, reply);
    const cache = mkdtempSync(join(tmpdir(), 'kg-llm-cache-'));
    const a = await augmentFeatures({ diseases, llm: llmFor(fake, cache), concurrency: 1 });
    assert.equal(a.features.length, 3, 'the shared phrase is one node');
    assert.ok(a.features.every((f) => f.kind === 'augmented'));
    assert.ok(a.features.some((f) => f.text === 'stiffness or pain in the lower back'));
    assert.equal(a.manifestations.length, 4);
    assert.ok(a.manifestations.every((m) => m.source === 'llm'));
    assert.equal(fake.chatRequests().length, 2);
    const again = await augmentFeatures({ diseases, llm: llmFor(fake, cache), concurrency: 1 });
    assert.deepEqual(again, a);
    assert.equal(fake.chatRequests().length, 2, 'served from the cache');
  });

  it('key differences: one prompt per disease with siblings; unknown sibling names fall back to all siblings', async () => {
    const hierarchy = await aggregateHierarchy(input, { mode: 'statistical', sizes });
    fake.push((r) => {
      const m = /distinguish "([^"]+)" from each of:\s*"([^"]+)"/.exec(promptOf(r))!;
      return { json: { differences: [{ text: `${m[1]} shows its own sign`, contrastsWith: [m[2]] }, { text: 'general difference', contrastsWith: ['Nonexistent disease'] }] } };
    });
    for (let i = 0; i < 5; i++) fake.push({ json: { differences: [{ text: `difference ${i}`, contrastsWith: [] }] } });
    const kds = await llmKeyDifferences({ ...input, hierarchy, llm: llmFor(fake), concurrency: 1 });
    assert.equal(fake.chatRequests().length, 6);
    const first = kds.filter((k) => k.diseaseId === 'dis:b0-d0');
    assert.equal(first.length, 2);
    assert.equal(first[0]!.contrastsWith.length, 1);
    assert.deepEqual([...first[1]!.contrastsWith].sort(), ['dis:b0-d1', 'dis:b0-d2']);
    assert.ok(kds.every((k) => k.source === 'llm' && k.featureId === null));
  });
});
