import { strict as assert } from 'node:assert';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { filterKnowledge, loadKnowledgeFilterPrompt } from '../../src/gate/knowledge-filter.js';
import type { PromptFile } from '../../src/adapters/llm/prompts.js';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai.js';

const RECORDS = [
  { id: 'r-support', diagnosis: 'Pneumonia', text: 'fever\nproductive cough' },
  { id: 'r-reject', diagnosis: 'Panic attack', text: 'palpitations\nfear of dying' },
  { id: 'r-repair', diagnosis: 'Bronchitis', text: 'cough\nwheezing' },
  { id: 'r-broken', diagnosis: 'GERD', text: 'burning retrosternal pain' },
];

/** Decides from which record the prompt carries; "r-repair" first answers prose, "r-broken" always prose. */
function judge(seen: Map<string, number>) {
  return (req: RecordedRequest) => {
    const user = JSON.stringify(req.body.messages);
    const rec = RECORDS.find((r) => user.includes(r.diagnosis))!;
    const n = (seen.get(rec.id) ?? 0) + 1;
    seen.set(rec.id, n);
    if (rec.id === 'r-support') return { json: { status: true } };
    if (rec.id === 'r-reject') return { json: { status: false } };
    if (rec.id === 'r-repair') return n === 1 ? { content: 'I think it is relevant.' } : { content: '```json\n{"status": "True"}\n```' };
    return { content: 'cannot say' };
  };
}

describe('gate: knowledge filter (FIND 3.3.2) against the fake OpenAI server', () => {
  let fake: FakeOpenAI;
  let prompt: PromptFile;
  const seen = new Map<string, number>();
  before(async () => {
    prompt = await loadKnowledgeFilterPrompt();
    fake = await startFakeOpenAI({ fallback: judge(seen) });
  });
  after(async () => fake.close());

  const chat = () => createChatModel({ llm: { enabled: true, model: 'fake-model', apiKey: 'k', baseUrl: fake.baseUrl, timeoutMs: 5000 } }, { maxRetries: 0 });

  it('keeps supported records, drops refuted ones, repairs once, keeps unjudgeable ones and marks degraded', async () => {
    const r = await filterKnowledge({ patient: 'fever 39 C\nproductive cough', records: RECORDS }, { chat: chat(), prompt }, { concurrency: 2 });
    assert.deepEqual(r.kept.map((x) => x.id), ['r-support', 'r-repair', 'r-broken']);
    assert.deepEqual(r.verdicts.map((v) => [v.id, v.supports, v.failure]), [
      ['r-support', true, null],
      ['r-reject', false, null],
      ['r-repair', true, null],
      ['r-broken', null, 'invalid'],
    ]);
    assert.equal(r.degraded, true);
    assert.equal(seen.get('r-repair'), 2, 'one repair attempt');
    assert.equal(seen.get('r-broken'), 2, 'no more than one repair');
  });

  it('sends the patient and the document in the user message and the role in the system message', async () => {
    const req = fake.chatRequests().find((q) => JSON.stringify(q.body.messages).includes('Pneumonia'))!;
    const [system, user] = req.body.messages as { role: string; content: string }[];
    assert.equal(system!.role, 'system');
    assert.match(system!.content, /medical expert/);
    assert.match(user!.content, /<patient>\nfever 39 C\nproductive cough\n<\/patient>/);
    assert.match(user!.content, /Confirmed diagnosis: Pneumonia/);
    assert.match(user!.content, /differential diagnosis/);
  });

  it('is not degraded when every verdict arrives', async () => {
    const r = await filterKnowledge({ patient: 'x', records: RECORDS.slice(0, 2) }, { chat: chat(), prompt });
    assert.deepEqual([r.kept.map((x) => x.id), r.degraded], [['r-support'], false]);
  });

  it('an unreachable endpoint keeps every record, degraded', async () => {
    const dead = createChatModel({ llm: { enabled: true, model: 'm', apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 2000 } }, { maxRetries: 0 });
    const r = await filterKnowledge({ patient: 'x', records: RECORDS.slice(0, 2) }, { chat: dead, prompt });
    assert.deepEqual([r.kept.length, r.degraded, r.verdicts.map((v) => v.failure)], [2, true, ['unavailable', 'unavailable']]);
  });
});
