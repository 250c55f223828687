import { strict as assert } from 'node:assert';
import { InputError, NotFoundError } from '../../src/errors.js';
import { FollowupEngine } from '../../src/followups/engine.js';
import { FollowupModel } from '../../src/followups/model.js';
import { buildQuestionCatalogue } from '../../src/followups/question-model.js';
import { Consultation, type SessionState } from '../../src/sessions/consultation.js';
import { codedInterpreter } from '../../src/sessions/interpreter.js';
import { SessionHistorySchema, SessionViewSchema } from '../../src/sessions/schemas.js';
import { SessionStore } from '../../src/sessions/session-store.js';
import { fixtureKg } from '../support/followups-kg.js';

function setup(opts: { confidence?: number; ttlMs?: number } = {}) {
  const model = new FollowupModel(fixtureKg(), { alpha: 0.5 });
  const engine = new FollowupEngine(model, buildQuestionCatalogue(model.features));
  const clock = { t: Date.UTC(2025, 0, 1) };
  const store = new SessionStore<SessionState>({ maxSessions: 5, ttlMs: opts.ttlMs ?? 60_000, now: () => clock.t });
  const c = new Consultation({ engine, store, interpreter: codedInterpreter(model), now: () => clock.t }, { confidence: opts.confidence ?? 0.95, questions: 3 });
  return { c, clock };
}
const cough = { text: 'cough', polarity: 'present' as const, code: 'E_1', valueCode: null };

describe('sessions: consultation', () => {
  it('starts from a coded description: differential, next questions, schema-valid', async () => {
    const { c } = setup();
    const v = await c.start({ findings: [cough], age: 40, sex: 'F' });
    SessionViewSchema.parse(v);
    assert.equal(v.ranker, 'information-gain');
    assert.equal(v.questions.length, 3);
    assert.ok(!v.questions.some((q) => q.id === 'q:E_1'), 'cough is known from the description');
    assert.ok(Math.abs(v.differential.reduce((s, d) => s + d.probability, 0) - 1) < 1e-9);
    assert.equal(v.stop.stop, false);
  });
  it('updates the differential with answers and signals stop when confident', async () => {
    const { c } = setup({ confidence: 0.9 });
    const v = await c.start({ findings: [cough] });
    const r = c.answer(v.sessionId, { answers: [{ questionId: 'q:E_4', answer: { type: 'options', optionIds: ['V_2'] } }, { questionId: 'q:E_2', answer: { type: 'no' } }] });
    assert.equal(r.differential[0]!.diseaseId, 'dis:b');
    assert.equal(r.answered, 2);
    assert.equal(r.stop.stop, true);
    assert.equal(r.stop.reason, 'confident');
    assert.ok(!r.questions.some((q) => q.id === 'q:E_4' || q.id === 'q:E_2'));
  });
  it('rejects an unknown question id or a mistyped answer with InputError, changing nothing', async () => {
    const { c } = setup();
    const v = await c.start({ findings: [cough] });
    assert.throws(() => c.answer(v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }, { questionId: 'q:E_999', answer: { type: 'yes' } }] }), (e: unknown) => e instanceof InputError && e.field === 'answers.1.questionId');
    assert.throws(() => c.answer(v.sessionId, { answers: [{ questionId: 'q:E_4', answer: { type: 'yes' } }] }), InputError);
    assert.equal(c.get(v.sessionId).answered, 0);
  });
  it('treats a repeated identical answer as idempotent; a changed answer replaces it', async () => {
    const { c } = setup();
    const v = await c.start({ findings: [cough] });
    const a = c.answer(v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] });
    const b = c.answer(v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] });
    assert.deepEqual(b.differential, a.differential);
    assert.equal(c.get(v.sessionId).turns.length, 2, 'start + one answer turn');
    const changed = c.answer(v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'no' } }] });
    assert.notDeepEqual(changed.differential, a.differential);
    assert.equal(changed.answered, 1);
  });
  it('returns the whole history and 404s unknown and expired sessions', async () => {
    const { c, clock } = setup({ ttlMs: 1000 });
    const v = await c.start({ text: 'a cough', findings: [cough], age: 30, sex: 'M' });
    c.answer(v.sessionId, { answers: [{ questionId: 'q:E_3', answer: { type: 'unknown' } }] });
    const h = SessionHistorySchema.parse(c.get(v.sessionId));
    assert.deepEqual(h.turns.map((t) => t.kind), ['start', 'answers']);
    assert.equal(h.turns[1]!.answers[0]!.question, 'Do you have a rash?');
    assert.deepEqual(h.evidence, [{ featureId: 'feat:cough', feature: 'Do you cough? yes', present: true }]);
    assert.equal(h.description.age, 30);
    assert.throws(() => c.get('unknown'), NotFoundError);
    clock.t += 1000;
    assert.throws(() => c.get(v.sessionId), NotFoundError);
    assert.throws(() => c.answer(v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] }), NotFoundError);
  });
});
