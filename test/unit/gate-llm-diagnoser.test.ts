import { strict as assert } from 'node:assert';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { createLlmDiagnoser, loadGateDiagnosePrompt } from '../../src/gate/llm-diagnoser.js';
import { annotateByMasking } from '../../src/gate/masking-annotation.js';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai.js';

const DISEASES = [
  { id: 'd:flu', name: 'Influenza' },
  { id: 'd:cold', name: 'Common cold' },
];
const userText = (req: RecordedRequest) => String((req.body.messages as { content: string }[]).at(-1)?.content ?? '');

describe('gate: LLM diagnoser for the masking annotation (against the fake OpenAI server)', () => {
  let fake: FakeOpenAI;
  before(async () => (fake = await startFakeOpenAI()));
  after(async () => fake.close());

  const diagnoser = async () =>
    createLlmDiagnoser(
      { chat: createChatModel({ llm: { enabled: true, model: 'fake', apiKey: 'k', baseUrl: fake.baseUrl, timeoutMs: 5000 } }, { maxRetries: 0 }), prompt: await loadGateDiagnosePrompt() },
      { diseases: DISEASES, timeoutMs: 5000 },
    );

  it('maps the named diseases back to ids, in the model’s order, and sends the closed list', async () => {
    fake.push({ json: { diagnoses: ['Common cold', 'Influenza'] } });
    assert.deepEqual(await (await diagnoser()).diagnose(['runny nose', 'sneezing']), ['d:cold', 'd:flu']);
    const user = userText(fake.chatRequests().at(-1)!);
    assert.match(user, /<patient>\nrunny nose\nsneezing\n<\/patient>/);
    assert.match(user, /- Influenza\n- Common cold/);
  });

  it('an answer outside the list, even after the repair, is no answer ([])', async () => {
    fake.push({ json: { diagnoses: ['Dengue'] } }, { json: { diagnoses: ['Malaria'] } });
    assert.deepEqual(await (await diagnoser()).diagnose(['fever']), []);
  });

  it('an outage throws a typed error (the build stage stops instead of labelling garbage)', async () => {
    fake.push({ status: 500 });
    await assert.rejects((await diagnoser()).diagnose(['fever']), (e: Error & { code?: string }) => e.code === 'UNAVAILABLE');
  });

  it('drives the masking annotation: a sentence whose removal changes the LLM answer is A', async () => {
    const reply = (req: RecordedRequest) => ({ json: { diagnoses: userText(req).includes('myalgia') ? ['Influenza'] : ['Common cold'] } });
    fake.push(reply, reply, reply);
    const r = await annotateByMasking(
      [{ id: 'r1', goldDiseaseId: 'd:flu', sentences: ['myalgia', 'lives alone'] }],
      { diagnoser: await diagnoser(), probe: { retrievesGold: async () => false } },
    );
    assert.deepEqual(r.sentences.map((s) => s.label), ['A', 'C']);
  });
});
