import assert from 'node:assert/strict';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import { LlmDecomposer, loadDecomposePrompt } from '../../src/query/decompose-llm.js';
import { decomposeRequest } from '../../src/query/decompose-request.js';
import { miniLexicon, miniSnapshot } from '../support/concept-fixture.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';

const snapshot = miniSnapshot();
const input = (text: string) => ({ text, findings: [], age: null, sex: null, options: DEFAULT_OPTIONS });

describe('LLM decomposition constrained to the KG vocabulary (MedRAG eq. 8)', () => {
  let fake: FakeOpenAI;
  let decomposer: LlmDecomposer;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
    const chat = createChatModel({ llm: { enabled: true, model: 'fake-model', apiKey: 'test', baseUrl: fake.baseUrl, timeoutMs: 3000 } }, { maxRetries: 0 });
    decomposer = new LlmDecomposer({ chat, prompt: await loadDecomposePrompt(), timeoutMs: 3000 });
  });
  afterEach(() => fake.close());

  const deps = () => ({ snapshot, lexicon: miniLexicon, decomposer });
  const ctx = { budget: null, signal: null };

  it('a vocabulary concept becomes a coded finding; negation, family and age/sex come through', async () => {
    fake.push({
      json: {
        findings: [
          { text: 'crushing chest pain', concept: 'pain', assertion: 'present', experiencer: 'patient' },
          { text: 'no fever', concept: 'fever', assertion: 'absent', experiencer: 'patient' },
          { text: 'mother had an MI', concept: 'family history of heart attack', assertion: 'present', experiencer: 'family' },
          { text: 'radiating to the left arm', concept: null, assertion: 'present', experiencer: 'patient' },
        ],
        age: 61,
        sex: 'M',
      },
    });
    const out = await decomposeRequest(deps(), input('61M crushing chest pain radiating to the left arm, no fever, mother had an MI'), ctx);
    assert.equal(out.trace.method, 'llm');
    assert.deepEqual(out.findings.map((f) => [f.code, f.polarity]), [['E_53', 'present'], ['E_91', 'absent'], ['E_200', 'present'], [null, 'present']]);
    assert.equal(out.findings[3]!.text, 'radiating to the left arm'); // left for the concept layer
    assert.equal(out.input.age, 61);
    assert.equal(out.input.sex, 'M');
    // The prompt lists the vocabulary and fences the patient text as data.
    const sent = JSON.stringify(fake.chatRequests()[0]!.body);
    assert.match(sent, /- fever/);
    assert.match(sent, /<patient>/);
  });

  it('a concept outside the vocabulary is repaired once, then the rule path answers', async () => {
    const bad = { findings: [{ text: 'fever', concept: 'pyrexia of unknown origin', assertion: 'present', experiencer: 'patient' }], age: null, sex: null };
    fake.push({ json: bad }, { json: bad });
    const out = await decomposeRequest(deps(), input('Fever and cough. No rash.'), ctx);
    assert.equal(fake.chatRequests().length, 2);
    assert.equal(out.trace.method, 'rules');
    assert.equal(out.trace.fallback, 'llm invalid');
    assert.ok(out.findings.some((f) => /fever/i.test(f.text)));
  });

  it('a relative\'s condition mapped to a patient concept loses its code', async () => {
    fake.push({ json: { findings: [{ text: 'brother has a cough', concept: 'cough', assertion: 'present', experiencer: 'family' }], age: null, sex: null } });
    const out = await decomposeRequest(deps(), input('brother has a cough'), ctx);
    assert.equal(out.findings[0]!.code, null);
    assert.equal(out.findings[0]!.experiencer, 'family');
  });

  it('an endpoint failure falls back to the rules, saying why', async () => {
    fake.push({ status: 500 });
    const out = await decomposeRequest(deps(), input('Fever and cough.'), ctx);
    assert.equal(out.trace.method, 'rules');
    assert.match(out.trace.fallback ?? '', /^llm (unavailable|invalid)/);
    assert.ok(out.findings.length >= 2);
  });

  it('a request marked for the rule path (the answer sent before an LLM report) never calls the LLM', async () => {
    const out = await decomposeRequest(deps(), { ...input('Fever and cough. No rash.'), options: { ...DEFAULT_OPTIONS, decomposition: 'rules' as const } }, ctx);
    assert.equal(out.trace.method, 'rules');
    assert.equal(out.trace.fallback, null);
    assert.equal(fake.chatRequests().length, 0);
    assert.ok(out.findings.some((f) => f.polarity === 'absent'), 'the rules read the text');
  });

  it('without a decomposer the rule path answers and reads age and sex from the text', async () => {
    const out = await decomposeRequest({ snapshot, lexicon: miniLexicon, decomposer: null }, input('45 y/o F with fever'), ctx);
    assert.equal(out.trace.method, 'rules');
    assert.equal(out.trace.fallback, null);
    assert.equal(out.input.age, 45);
    assert.equal(out.input.sex, 'F');
  });
});
