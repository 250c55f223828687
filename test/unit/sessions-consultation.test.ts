import { strict as assert } from 'node:assert';
import { InputError, NotFoundError } from '../../src/errors.js';
import { FollowupEngine } from '../../src/followups/engine.js';
import { FollowupModel } from '../../src/followups/model.js';
import { buildQuestionCatalogue } from '../../src/followups/question-model.js';
import { DEFAULT_OPTIONS, type DiagnoseInput, type DiagnoseResult, type RankedDisease } from '../../src/query/contracts.js';
import { Consultation, type SessionState } from '../../src/sessions/consultation.js';
import type { SessionCalibration } from '../../src/sessions/calibrated-differential.js';
import { calibratedPosterior } from '../../src/calibration/temperature.js';
import { SessionBuildError, SessionConflictError, SessionLimitError } from '../../src/sessions/errors.js';
import { decodeState, encodeState } from '../../src/sessions/session-codec.js';
import { SessionHistorySchema, SessionViewSchema } from '../../src/sessions/schemas.js';
import { MemorySessionRepository } from '../../src/sessions/memory-repository.js';
import { fixtureKg } from '../support/followups-kg.js';

/** A deterministic stand-in for the query service: records its inputs, answers a fixed differential. */
class FakeQuery {
  inputs: DiagnoseInput[] = [];
  insufficient: DiagnoseResult['insufficient'] = null;
  constructor(private readonly ranked: [string, string, number][]) {}
  async diagnose(input: DiagnoseInput): Promise<DiagnoseResult> {
    this.inputs.push(input);
    const differential: RankedDisease[] = this.ranked.map(([diseaseId, disease, score]) => ({ diseaseId, disease, score, subcategory: 's', category: 'c', evidence: [] }));
    // The coded cough finding matches its feature exactly, as the real matcher does.
    const matches = input.findings.flatMap((f, i) => (f.code === 'E_1' ? [{ findingIndex: i, featureId: 'feat:cough', featureText: 'cough', similarity: 1, polarity: f.polarity }] : []));
    return {
      differential, followUps: [], report: null, degraded: false, reasoner: 'evidence', probability: null, model: null, insufficient: this.insufficient,
      trace: { gate: null, decomposition: { method: 'rules', fallback: null, age: null, sex: null }, findings: input.findings, matches, votes: [], chosenSubcategory: null, differencesKg: [], retrieved: [], timingsMs: {} },
    };
  }
}

const A_FIRST: [string, string, number][] = [['dis:a', 'A', 0.6], ['dis:b', 'B', 0.3], ['dis:c', 'C', 0.1]];

function setup(opts: { confidence?: number; ttlMs?: number; maxTurns?: number; ranked?: [string, string, number][]; calibration?: SessionCalibration } = {}) {
  const model = new FollowupModel(fixtureKg(), { alpha: 0.5 });
  const engine = new FollowupEngine(model, buildQuestionCatalogue(model.features));
  const clock = { t: Date.UTC(2025, 0, 1) };
  const store = new MemorySessionRepository<SessionState>({ maxSessions: 5, maxPerOwner: 5, ttlMs: opts.ttlMs ?? 60_000, lifetimeMs: 3_600_000, now: () => clock.t });
  const query = new FakeQuery(opts.ranked ?? A_FIRST);
  const options = { confidence: opts.confidence ?? 0.95, questions: 3, ...(opts.maxTurns ? { maxTurns: opts.maxTurns } : {}) };
  const c = new Consultation({ engine, store, query, buildId: 'kg-1', now: () => clock.t, ...(opts.calibration ? { calibration: opts.calibration } : {}) }, options);
  /** Another server on the same store, serving `buildId` (a replica after a rebuild). */
  const replica = (buildId: string, newest?: string) => new Consultation({ engine, store, query, buildId, now: () => clock.t, ...(newest ? { newestBuild: async () => newest } : {}) }, options);
  return { c, clock, query, store, engine, replica };
}
const cough = { text: 'cough', polarity: 'present' as const, code: 'E_1', valueCode: null };
const K = 'key:1';

describe('sessions: consultation', () => {
  it('starts from exactly what diagnose gives for the body (same input, default options), schema-valid', async () => {
    const { c, query } = setup();
    const v = await c.start(K, { text: 'a dry cough', findings: [cough], age: 40, sex: 'F' });
    SessionViewSchema.parse(v);
    assert.equal(query.inputs.length, 1);
    assert.deepEqual(query.inputs[0], { text: 'a dry cough', findings: [cough], age: 40, sex: 'F', options: { ...DEFAULT_OPTIONS, followUps: 0 } });
    assert.deepEqual(v.differential, A_FIRST.map(([diseaseId, disease, probability]) => ({ diseaseId, disease, probability })));
    assert.equal(v.questions.length, 3);
    assert.ok(!v.questions.some((q) => q.id === 'q:E_1'), 'cough is known from the description');
    assert.equal(v.stop.topProbability, 0.6);
    assert.equal(v.stop.stop, false);
    assert.equal(v.turnsLeft, 200);
  });
  it('a measured value in the description reaches diagnose as the same value in text, and the history keeps what was asked', async () => {
    const { c, query } = setup();
    const v = await c.start(K, { findings: [cough, { text: 'Heart rate', polarity: 'present', code: 'LOINC:8867-4', valueCode: null, value: 124, unit: '/min' }] });
    assert.deepEqual(query.inputs[0]!.findings[1], { text: 'Elevated heart rate', polarity: 'present', code: null, valueCode: null, measured: { analyte: 'heart rate', loinc: '8867-4', value: 124, unit: '/min' } });
    SessionHistorySchema.parse(await c.get(K, v.sessionId));
  });

  it('answers update the first differential (no further diagnose call) and signal stop when confident', async () => {
    const { c, query } = setup({ confidence: 0.9 });
    const v = await c.start(K, { findings: [cough] });
    const r = await c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_4', answer: { type: 'options', optionIds: ['V_2'] } }, { questionId: 'q:E_2', answer: { type: 'no' } }] });
    assert.equal(query.inputs.length, 1);
    assert.equal(r.differential[0]!.diseaseId, 'dis:b', 'back pain and no fever overturn A');
    assert.ok(Math.abs(r.differential.reduce((s, d) => s + d.probability, 0) - 1) < 1e-9);
    assert.equal(r.answered, 2);
    assert.equal(r.turnsLeft, 198, 'two changed answers recorded');
    assert.equal(r.stop.stop, true);
    assert.equal(r.stop.reason, 'confident');
    assert.ok(!r.questions.some((q) => q.id === 'q:E_4' || q.id === 'q:E_2'));
  });
  it('after answers the differential is shown calibrated as diagnose\'s is (coded kind, completeness grown by the answers), in the same order, and the stop signal reads it', async () => {
    // β = 0.4 at completeness 0, 0.2 lower per unit: an overconfident reading flattened.
    const calibration: SessionCalibration = { posterior: { method: 'temperature', kinds: { coded: { b0: 0.4, b1: -0.2 } } }, meanFeaturesPerRecord: 6 };
    const answers = { answers: [{ questionId: 'q:E_4', answer: { type: 'options' as const, optionIds: ['V_2'] } }, { questionId: 'q:E_2', answer: { type: 'no' as const } }] };
    const raw = setup({ confidence: 0.9 });
    const cal = setup({ confidence: 0.9, calibration });
    const r = await raw.c.answer(K, (await raw.c.start(K, { findings: [cough] })).sessionId, answers);
    const v = await cal.c.start(K, { findings: [cough] });
    assert.deepEqual(v.differential.map((d) => d.probability), [0.6, 0.3, 0.1], 'the first turn is diagnose\'s own (calibrated there)');
    const k = await cal.c.answer(K, v.sessionId, answers);
    assert.deepEqual(k.differential.map((d) => d.diseaseId), r.differential.map((d) => d.diseaseId), 'calibration never reorders');
    // cough (matched) + two answers = 3 of a typical record's 6 findings
    const expected = calibratedPosterior(Float64Array.from(r.differential, (d) => Math.log(d.probability)), calibration.posterior.kinds.coded, 3 / 6).probs;
    for (const [i, d] of k.differential.entries()) assert.ok(Math.abs(d.probability - expected[i]!) < 1e-9, `${d.diseaseId} ${d.probability} vs ${expected[i]}`);
    assert.ok(k.differential[0]!.probability < r.differential[0]!.probability);
    assert.equal(r.stop.stop, true);
    assert.equal(k.stop.topProbability, k.differential[0]!.probability);
    assert.equal(k.stop.stop, k.differential[0]!.probability >= 0.9);
  });
  it('without any description (age and sex only, as the masking protocol at 100%) starts from the KG prior without calling diagnose', async () => {
    const { c, query } = setup();
    const v = await c.start(K, { findings: [], age: 30, sex: 'F' });
    assert.equal(query.inputs.length, 0);
    assert.deepEqual(v.differential.map((d) => d.diseaseId), ['dis:a', 'dis:b', 'dis:c'], 'by record count: 20, 20, 10');
    assert.ok(v.questions.length > 0);
  });
  it("carries diagnose's 'too little matched' verdict on the first description until a question is answered", async () => {
    const { c, query } = setup();
    query.insufficient = { reason: 'no-finding-matched', message: 'no finding matched the knowledge graph' };
    const v = await c.start(K, { text: 'zzz' });
    assert.deepEqual(v.insufficient, query.insufficient);
    const r = await c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] });
    assert.equal(r.insufficient, null);
    const ok = await setup().c.start(K, { findings: [cough] });
    assert.equal(ok.insufficient, null);
  });
  it('a disease diagnose left out starts below every listed one and can still rise with answers', async () => {
    const { c } = setup({ ranked: [['dis:a', 'A', 0.7], ['dis:b', 'B', 0.3]] });
    const v = await c.start(K, { findings: [cough] });
    assert.deepEqual(v.differential.map((d) => d.diseaseId), ['dis:a', 'dis:b']);
    const r = await c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_3', answer: { type: 'yes' } }] });
    const ids = r.differential.map((d) => d.diseaseId);
    assert.ok(ids.includes('dis:c'), 'C (the only one with a rash) is back in the differential');
    assert.ok(ids.indexOf('dis:c') < ids.indexOf('dis:b'), 'a rash, which only C has, puts C above B');
  });
  it('rejects an unknown question id (without echoing it) or a mistyped answer with InputError, changing nothing', async () => {
    const { c } = setup();
    const v = await c.start(K, { findings: [cough] });
    await assert.rejects(c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }, { questionId: 'q:E_999\u202e', answer: { type: 'yes' } }] }), (e: unknown) => e instanceof InputError && e.field === 'answers.1.questionId' && !e.message.includes('E_999'));
    await assert.rejects(c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_4', answer: { type: 'yes' } }] }), InputError);
    assert.equal((await c.get(K, v.sessionId)).answered, 0);
  });
  it('treats a repeated identical answer as idempotent; a changed answer replaces it', async () => {
    const { c } = setup();
    const v = await c.start(K, { findings: [cough] });
    const a = await c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] });
    const b = await c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] });
    assert.deepEqual(b.differential, a.differential);
    assert.equal((await c.get(K, v.sessionId)).turns.length, 2, 'start + one answer turn');
    const changed = await c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'no' } }] });
    assert.notDeepEqual(changed.differential, a.differential);
    assert.equal(changed.answered, 1);
  });
  it('caps answer turns: flipping an answer back and forth stops at the cap, history stays bounded', async () => {
    const { c } = setup({ maxTurns: 3 });
    const v = await c.start(K, { findings: [cough] });
    const flip = (yes: boolean) => c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: yes ? 'yes' : 'no' } }] });
    for (let i = 0; i < 3; i++) await flip(i % 2 === 0);
    await assert.rejects(flip(false), (e: unknown) => e instanceof SessionLimitError && e.limit === 'session-turns');
    const h = await c.get(K, v.sessionId);
    assert.equal(h.turns.length, 4, 'start + 3 answer turns, nothing after the cap');
    assert.equal(h.turnsLeft, 0);
    assert.equal((await flip(true)).answered, 1, 'repeating the current answer is still answered (no new turn)');
    const two = setup({ maxTurns: 3 });
    const w = await two.c.start(K, { findings: [cough] });
    await two.c.answer(K, w.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }, { questionId: 'q:E_3', answer: { type: 'no' } }] });
    const batch = { answers: [{ questionId: 'q:E_2', answer: { type: 'no' as const } }, { questionId: 'q:E_3', answer: { type: 'yes' as const } }] };
    await assert.rejects(two.c.answer(K, w.sessionId, batch), (e: unknown) => e instanceof SessionLimitError, 'a batch counts each changed answer: 2 + 2 > 3');
    assert.equal((await two.c.get(K, w.sessionId)).turnsLeft, 1);
  });
  it('belongs to its owner: another key gets NotFoundError for read, answer and end', async () => {
    const { c } = setup();
    const v = await c.start(K, { findings: [cough] });
    await assert.rejects(c.get('key:2', v.sessionId), NotFoundError);
    await assert.rejects(c.answer('key:2', v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] }), NotFoundError);
    await assert.rejects(c.end('key:2', v.sessionId), NotFoundError);
    assert.equal((await c.get(K, v.sessionId)).answered, 0);
    await c.end(K, v.sessionId);
    await assert.rejects(c.get(K, v.sessionId), NotFoundError);
  });
  it('returns the whole history and 404s unknown and expired sessions', async () => {
    const { c, clock } = setup({ ttlMs: 1000 });
    const v = await c.start(K, { text: 'a cough', findings: [cough], age: 30, sex: 'M' });
    await c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_3', answer: { type: 'unknown' } }] });
    const h = SessionHistorySchema.parse(await c.get(K, v.sessionId));
    assert.deepEqual(h.turns.map((t) => t.kind), ['start', 'answers']);
    assert.equal(h.turns[1]!.answers[0]!.question, 'Rash?');
    assert.deepEqual(h.evidence, [{ featureId: 'feat:cough', feature: 'Cough', present: true }]);
    assert.equal(h.description.age, 30);
    await assert.rejects(c.get(K, 'unknown'), NotFoundError);
    clock.t += 1000;
    await assert.rejects(c.get(K, v.sessionId), NotFoundError);
    await assert.rejects(c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] }), NotFoundError);
  });

  it('two answers to the same turn at once: one is recorded, the other is a SessionConflictError and changes nothing', async () => {
    const { c } = setup();
    const v = await c.start(K, { findings: [cough] });
    const yes = c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] });
    const no = c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_3', answer: { type: 'no' } }] });
    const [a, b] = await Promise.allSettled([yes, no]);
    assert.equal(a.status, 'fulfilled');
    assert.ok(b.status === 'rejected' && b.reason instanceof SessionConflictError, 'the second read the same version');
    const h = await c.get(K, v.sessionId);
    assert.deepEqual(h.turns.map((t) => t.answers.map((x) => x.questionId)), [[], ['q:E_2']]);
    assert.equal(h.version, 2);
  });
  it("answers naming an older version are refused (409), a repeat of what is recorded is not; version counts turns", async () => {
    const { c } = setup();
    const v = await c.start(K, { findings: [cough] });
    assert.equal(v.version, 1);
    assert.equal(v.buildId, 'kg-1');
    const r = await c.answer(K, v.sessionId, { version: 1, answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] });
    assert.equal(r.version, 2);
    await assert.rejects(c.answer(K, v.sessionId, { version: 1, answers: [{ questionId: 'q:E_3', answer: { type: 'yes' } }] }), (e: unknown) => e instanceof SessionConflictError && e.current === 2);
    assert.equal((await c.answer(K, v.sessionId, { version: 1, answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] })).version, 2, 'a retried turn is idempotent');
    assert.equal((await c.get(K, v.sessionId)).answered, 1);
  });
  it('a session keeps its build: another replica on the same build continues it, one on a newer build refuses answers (history stays readable)', async () => {
    const { c, replica } = setup();
    const v = await c.start(K, { findings: [cough] });
    const same = await replica('kg-1').answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] });
    assert.equal(same.version, 2);
    const next = replica('kg-2');
    await assert.rejects(next.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_3', answer: { type: 'yes' } }] }), (e: unknown) => e instanceof SessionBuildError && /kg-1/.test(e.message) && /kg-2/.test(e.message));
    await assert.rejects(next.answer(K, v.sessionId, { answers: [{ questionId: 'q:only-in-kg-1', answer: { type: 'yes' } }] }), SessionBuildError, 'the build is checked before the answers');
    assert.equal((await next.get(K, v.sessionId)).buildId, 'kg-1');
    const fresh = await next.start(K, { findings: [cough] });
    assert.equal(fresh.buildId, 'kg-2', 'new sessions start on the served build');
    await assert.rejects(replica('kg-1', 'kg-2').answer(K, fresh.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] }), (e: unknown) => e instanceof SessionBuildError && e.pending && e.code === 'SESSION_BUILD_PENDING', 'a replica not yet restarted: the session is newer, not retired');
    await assert.rejects(replica('kg-2', 'kg-2').answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }] }), (e: unknown) => e instanceof SessionBuildError && !e.pending);
  });
  it('the stored form (JSON, for the Neo4j store) round-trips a session state, questions re-attached to the catalogue', async () => {
    const { c, store, engine } = setup();
    const v = await c.start(K, { text: 'cough', findings: [cough], age: 30, sex: 'F' });
    await c.answer(K, v.sessionId, { answers: [{ questionId: 'q:E_2', answer: { type: 'yes' } }, { questionId: 'q:E_4', answer: { type: 'options', optionIds: ['V_2'] } }] });
    const state = (await store.get(v.sessionId, K)).value;
    const back = decodeState(encodeState(state), engine.catalogue);
    assert.deepEqual(back, state);
    assert.ok(back.last.questions.length > 0 && back.last.questions.every((q) => q.question === engine.catalogue.byId.get(q.question.id)));
    const other = decodeState(encodeState(state), { byId: new Map() });
    assert.deepEqual(other.last.questions, [], "questions another build's catalogue lacks are left out");
  });
});
