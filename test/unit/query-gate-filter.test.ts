import { strict as assert } from 'node:assert';
import type { Embeddings } from '@langchain/core/embeddings';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { loadKnowledgeFilterPrompt } from '../../src/gate/knowledge-filter.js';
import { DEFAULT_GATE_PARAMS } from '../../src/gate/types.js';
import { diagnose, type DiagnoseDeps } from '../../src/query/diagnose.js';
import { SigmaRanker } from '../../src/query/followups-sigma.js';
import { textInput } from '../../src/query/query-service.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai.js';
import { tinyKg } from '../support/query-kg.js';
import { constantClassifier } from './query-gate-support.js';

/** The judge refutes Measles records, supports the others; `broken` answers prose only. */
const judge = (broken: { on: boolean }) => (req: RecordedRequest) => {
  if (broken.on) return { content: 'cannot tell' };
  return { json: { status: !JSON.stringify(req.body.messages).includes('Measles') } };
};

describe('query: FIND knowledge filter on retrieved records (LLM only)', () => {
  let fake: FakeOpenAI;
  const broken = { on: false };
  before(async () => {
    fake = await startFakeOpenAI({ fallback: judge(broken) });
  });
  after(async () => fake.close());

  async function deps(): Promise<DiagnoseDeps> {
    const fx = await tinyKg();
    const chat = createChatModel({ llm: { enabled: true, model: 'fake-model', apiKey: 'k', baseUrl: fake.baseUrl, timeoutMs: 5000 } }, { maxRetries: 0 });
    return {
      graph: { read: async () => [] }, ...fx, reasoners: [new EvidenceReasoner()], followUpRanker: new SigmaRanker(), differencesPerDisease: 10,
      gate: { classifier: constantClassifier('B', fx.featureIndex.dim), embeddings: fx.embedder.embeddings as Embeddings, mode: 'on', params: { ...DEFAULT_GATE_PARAMS } },
      knowledgeFilter: { chat, prompt: await loadKnowledgeFilterPrompt() },
    };
  }
  const TEXT = 'Fever. Rash. Cough. No chest pain. No sweating.';

  it('drops the records the LLM judges unsupportive, one call per retrieved record', async () => {
    const d = await deps();
    const before = fake.chatRequests().length;
    const res = await diagnose(d, textInput(TEXT, { topK: 9 }));
    assert.equal(res.trace.gate?.decision, 'retrieve');
    assert.equal(fake.chatRequests().length - before, 9);
    assert.ok(res.trace.retrieved.length > 0 && res.trace.retrieved.every((r) => r.diagnosis !== 'Measles'), JSON.stringify(res.trace.retrieved.map((r) => r.diagnosis)));
    assert.equal(res.trace.retrieved.length, 7, 'the two Measles records dropped');
    assert.ok(res.trace.timingsMs.filter! >= 0);
    assert.equal(res.degraded, false);
  });

  it('a judge that cannot answer keeps every record and marks the answer degraded', async () => {
    broken.on = true;
    try {
      const res = await diagnose(await deps(), textInput(TEXT, { topK: 9 }));
      assert.equal(res.trace.retrieved.length, 9);
      assert.equal(res.degraded, true);
    } finally {
      broken.on = false;
    }
  });

  it('the filter belongs to the FIND path: with the gate off (and record retrieval) no LLM call is made', async () => {
    const d = await deps();
    const before = fake.chatRequests().length;
    const res = await diagnose(d, textInput(TEXT, { topK: 9, gate: 'off' }));
    assert.equal(fake.chatRequests().length, before);
    assert.equal(res.trace.retrieved.length, 9);
    assert.equal(res.trace.timingsMs.filter, undefined);
  });
});
