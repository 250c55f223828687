import { strict as assert } from 'node:assert';
import type { Embeddings } from '@langchain/core/embeddings';
import { LlmBudget } from '../../src/adapters/llm/budget.js';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { InputError } from '../../src/errors.js';
import { loadKnowledgeFilterPrompt } from '../../src/gate/knowledge-filter.js';
import { DEFAULT_GATE_PARAMS } from '../../src/gate/types.js';
import { diagnose, type DiagnoseDeps } from '../../src/query/diagnose.js';
import { SigmaRanker } from '../../src/query/followups-sigma.js';
import { textInput } from '../../src/query/query-service.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { tinyKg } from '../support/query-kg.js';
import { constantClassifier } from './query-gate-support.js';

/**
 * Issue 18, defect 3: one LLM budget per request. Unit level: the budget's accounting, and
 * diagnose with the knowledge filter on a HUNG endpoint (a real local HTTP server that never
 * answers in time) returning within the request's budget instead of records × timeout.
 * Also the findings bound right after decomposition, and the clause bound before it.
 */
describe('per-request LLM budget and findings bounds (issue 18)', function () {
  this.timeout(20000);

  it('LlmBudget: calls are counted across slices, time and client abort refuse further calls', async () => {
    let now = 0;
    const b = new LlmBudget({ wallMs: 1000, maxCalls: 3 }, { now: () => now });
    const slice = b.slice({ share: 0.5, maxCalls: 1 });
    assert.ok(slice.claim().ok);
    assert.deepEqual(slice.claim(), { ok: false, error: 'calls' }, "the slice's own cap");
    assert.equal(b.callsUsed, 1, 'charged to the parent too');
    assert.ok(b.claim().ok);
    assert.ok(b.claim().ok);
    assert.deepEqual(b.claim(), { ok: false, error: 'calls' });
    const t = new LlmBudget({ wallMs: 1000, maxCalls: 10 }, { now: () => now });
    now += 1000;
    assert.deepEqual(t.claim(), { ok: false, error: 'time' });
    const gone = new AbortController();
    const a = new LlmBudget({ wallMs: 60_000, maxCalls: 10 }, { signal: gone.signal });
    gone.abort();
    assert.deepEqual(a.claim(), { ok: false, error: 'aborted' });
    assert.equal(a.signal.aborted, true, "the budget's signal aborts outstanding calls");
  });

  describe('diagnose with the knowledge filter on a hung LLM', () => {
    let fake: FakeOpenAI;
    before(async () => {
      fake = await startFakeOpenAI({ fallback: { delayMs: 30_000, content: '{"status": true}' } });
    });
    after(async () => fake.close());

    async function deps(wallMs: number): Promise<DiagnoseDeps> {
      const fx = await tinyKg();
      // Each call may wait 5 s: without the request budget, 5 records at concurrency 4 take ≥ 10 s.
      const chat = createChatModel({ llm: { enabled: true, model: 'fake-model', apiKey: 'k', baseUrl: fake.baseUrl, timeoutMs: 5000 } }, { maxRetries: 0 });
      return {
        graph: { read: async () => [] }, ...fx, reasoners: [new EvidenceReasoner()], followUpRanker: new SigmaRanker(), differencesPerDisease: 10,
        gate: { classifier: constantClassifier('B', fx.featureIndex.dim), embeddings: fx.embedder.embeddings as Embeddings, mode: 'on', params: { ...DEFAULT_GATE_PARAMS } },
        knowledgeFilter: { chat, prompt: await loadKnowledgeFilterPrompt(), options: { timeoutMs: 5000 } },
        limits: { maxFindings: 200, llmBudget: { wallMs, maxCalls: 16 } },
      };
    }

    it('answers degraded within the budget, keeping the unjudged records', async () => {
      const d = await deps(800);
      const t0 = Date.now();
      const res = await diagnose(d, textInput('Fever. Rash. Cough.', { topK: 5, reasoner: 'evidence' }));
      const ms = Date.now() - t0;
      assert.equal(res.degraded, true);
      assert.equal(res.trace.retrieved.length, 5, 'records the filter could not judge are kept');
      assert.ok(ms < 800 + 700, `${ms} ms for a budget of 800 ms (5 s per call otherwise)`);
    });

    it('a client abort ends the filter at once', async () => {
      const d = await deps(60_000);
      const gone = new AbortController();
      setTimeout(() => gone.abort(), 300);
      const t0 = Date.now();
      const res = await diagnose(d, textInput('Fever. Rash. Cough.', { topK: 5, reasoner: 'evidence' }), { signal: gone.signal });
      assert.equal(res.degraded, true);
      assert.ok(Date.now() - t0 < 1500, `${Date.now() - t0} ms after an abort at 300 ms`);
    });
  });

  it('bounds findings after decomposition and clauses before it, naming the field', async () => {
    const fx = await tinyKg();
    const d: DiagnoseDeps = { graph: { read: async () => [] }, ...fx, reasoners: [new EvidenceReasoner()], followUpRanker: new SigmaRanker(), differencesPerDisease: 10, limits: { maxFindings: 3, llmBudget: { wallMs: 1000, maxCalls: 1 } } };
    const structured = ['fever', 'rash', 'cough', 'headache'].map((text) => ({ text, polarity: 'present' as const, code: null, valueCode: null }));
    await assert.rejects(diagnose(d, { ...textInput('x'), text: null, findings: structured }), (e: unknown) => e instanceof InputError && e.field === 'findings' && /more than 3 findings/.test(e.message));
    await assert.rejects(diagnose(d, textInput('fever, '.repeat(16))), (e: unknown) => e instanceof InputError && e.field === 'text' && /more than 15 clauses/.test(e.message));
    const ok = await diagnose(d, { ...textInput('x'), text: null, findings: structured.slice(0, 3) });
    assert.ok(ok.differential.length > 0);
  });
});
