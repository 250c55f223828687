import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { patientAnswer } from '../../src/eval/simulated-patient.js';
import { KG_BUILD_IDS } from '../../src/followups/record-kg.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type DxServer } from '../../src/server.js';
import { SessionHistorySchema, SessionViewSchema, type SessionView } from '../../src/sessions/schemas.js';
import { splitFilter } from '../../src/sources/split.js';
import { buildDdxplusKg, readDdxplusRecords } from '../support/ddxplus-build.js';

/**
 * Consultation sessions over REAL HTTP (startServer on port 0) after a real build of the
 * train part of a 60/40 patient-level split of the DDXPlus sample into the real Neo4j and
 * real FAISS indexes. The simulated patient answers from held-out records through the
 * harness's rule (src/eval/simulated-patient.ts). The claim "5 information-gain questions
 * raise top-1 well above 0 questions" is asserted on a fixed split in
 * test/unit/followups-simulation.test.ts; here the figures over HTTP are printed.
 */
const SPLIT = { seed: 13, testFraction: 0.4 };
const HELD_OUT = 40;
const STOP_PATIENTS = 20;

interface Reply {
  status: number;
  json: any;
  text: string;
}

async function call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Reply> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), text };
}

const initialFinding = (p: NormalizedRecord) => p.findings.find((f) => f.code === p.initialFindingCode)!;
const coded = (f: NormalizedRecord['findings'][number]) => ({ text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode });
const probabilities = (v: SessionView) => v.differential.map((d) => `${d.diseaseId}=${d.probability.toFixed(12)}`);

describe('consultation sessions over HTTP: real build, Neo4j, FAISS, port 0', function () {
  this.timeout(600_000);
  let dataDir: string;
  let config: Config;
  let server: DxServer;
  let shortLived: DxServer;
  let heldOut: NormalizedRecord[];
  let truth: (p: NormalizedRecord) => string | undefined;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dx-sessions-int-'));
    const env = { ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' };
    config = loadConfig(env);
    await buildDdxplusKg(config, splitFilter({ ...SPLIT, part: 'train' }), { gate: false });
    heldOut = await readDdxplusRecords(splitFilter({ ...SPLIT, part: 'test' }), HELD_OUT);
    server = await startServer({ config, logger: createLogger({ level: 'silent' }), port: 0 });
    // The session variables, end to end: a 1 s TTL, another stop confidence and ranker.
    const shortConfig = loadConfig({ ...env, DXGRAPH_SESSION_TTL_MS: '1000', DXGRAPH_SESSION_MAX: '2', DXGRAPH_STOP_CONFIDENCE: '0.6', DXGRAPH_FOLLOWUP_RANKER: 'sigma' });
    shortLived = await startServer({ config: shortConfig, logger: createLogger({ level: 'silent' }), port: 0 });
    const diseases = server.query.snapshot.diseases;
    truth = (p) => diseases.find((d) => d.name === p.diagnosis || d.aliases.includes(p.diagnosis))?.id;
  });

  after(async () => {
    // lingerMs 0: a teardown; no client sends another request on an idle kept-alive socket, so no 1 s linger.
    await shortLived?.close({ drainMs: 1000, lingerMs: 0 });
    await server?.close({ drainMs: 1000, lingerMs: 0 });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe('one consultation, step by step', () => {
    let p: NormalizedRecord;
    let started: SessionView;
    let afterOne: SessionView;

    before(() => {
      p = heldOut[0]!;
    });

    it('a first description (free text) starts a session: id, differential, next questions with ids, text, answer type, options', async () => {
      const r = await call('POST', `${server.url}/v1/sessions`, { text: initialFinding(p).text, age: p.age, sex: p.sex });
      assert.equal(r.status, 201, r.text);
      started = SessionViewSchema.parse(r.json);
      assert.match(started.sessionId, /^[0-9a-f-]{36}$/);
      assert.equal(started.ranker, 'information-gain');
      assert.equal(started.answered, 0);
      const ids = new Set(server.query.snapshot.diseases.map((d) => d.id));
      assert.ok(started.differential.length >= 3 && started.differential.every((d) => ids.has(d.diseaseId)));
      for (let i = 1; i < started.differential.length; i++) assert.ok(started.differential[i - 1]!.probability >= started.differential[i]!.probability);
      assert.equal(started.questions.length, 5);
      assert.equal(new Set(started.questions.map((q) => q.id)).size, 5);
      for (const q of started.questions) {
        assert.ok(q.id.startsWith('q:') && q.text.length > 3 && q.score > 0, JSON.stringify(q));
        if (q.answerType !== 'yes-no') assert.ok(q.options.length >= 2 && q.options.every((o) => o.id && o.label), JSON.stringify(q));
      }
      assert.ok(started.questions.some((q) => q.answerType !== 'yes-no' && q.options.length > 1), 'grouped questions with options are offered');
      // The chief complaint was matched through FAISS, so it is not asked again.
      assert.ok(!started.questions.some((q) => q.id === `q:${p.initialFindingCode}`));
      assert.equal(started.stop.confidence, 0.9);
      assert.equal(started.stop.topProbability, started.differential[0]!.probability);
    });

    it('answering the top question changes the differential', async () => {
      const q = started.questions[0]!;
      const r = await call('POST', `${server.url}/v1/sessions/${started.sessionId}/answers`, { answers: [{ questionId: q.id, answer: patientAnswer(q, p, KG_BUILD_IDS) }] });
      assert.equal(r.status, 200, r.text);
      afterOne = SessionViewSchema.parse(r.json);
      assert.equal(afterOne.sessionId, started.sessionId);
      assert.equal(afterOne.answered, 1);
      assert.notDeepEqual(probabilities(afterOne), probabilities(started));
      assert.ok(!afterOne.questions.some((x) => x.id === q.id), 'an answered question is not offered again');
    });

    it('a repeated identical answer is idempotent: same differential, history not duplicated', async () => {
      const q = started.questions[0]!;
      const body = { answers: [{ questionId: q.id, answer: patientAnswer(q, p, KG_BUILD_IDS) }] };
      const again = await call('POST', `${server.url}/v1/sessions/${started.sessionId}/answers`, body);
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.json.differential, afterOne.differential);
      assert.deepEqual(again.json.questions, afterOne.questions);
      assert.equal(again.json.answered, 1);
      const history = await call('GET', `${server.url}/v1/sessions/${started.sessionId}`);
      assert.deepEqual(history.json.turns.map((t: any) => t.kind), ['start', 'answers']);
    });

    it('an answer to an unknown question id is a 400 naming the field, and changes nothing', async () => {
      const valid = afterOne.questions[0]!;
      const bad = await call('POST', `${server.url}/v1/sessions/${started.sessionId}/answers`, {
        answers: [{ questionId: valid.id, answer: patientAnswer(valid, p, KG_BUILD_IDS) }, { questionId: 'q:E_NOT_A_QUESTION', answer: { type: 'yes' } }],
      });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.json.error.field, 'answers.1.questionId');
      const typed = await call('POST', `${server.url}/v1/sessions/${started.sessionId}/answers`, { answers: [{ questionId: afterOne.questions[0]!.id, answer: { type: 'maybe' } }] });
      assert.equal(typed.status, 400, typed.text);
      const history = await call('GET', `${server.url}/v1/sessions/${started.sessionId}`);
      assert.equal(history.json.answered, 1, 'the valid first answer of the rejected batch was not applied');
      assert.deepEqual(history.json.differential, afterOne.differential);
    });

    it('GET returns the whole history: description, matched evidence, every turn', async () => {
      const q = afterOne.questions[0]!;
      const second = await call('POST', `${server.url}/v1/sessions/${started.sessionId}/answers`, { answers: [{ questionId: q.id, answer: patientAnswer(q, p, KG_BUILD_IDS) }] });
      assert.equal(second.status, 200, second.text);
      const r = await call('GET', `${server.url}/v1/sessions/${started.sessionId}`);
      assert.equal(r.status, 200, r.text);
      const h = SessionHistorySchema.parse(r.json);
      assert.equal(h.description.text, initialFinding(p).text);
      assert.equal(h.description.age, p.age);
      assert.ok(h.evidence.some((e) => e.featureId === KG_BUILD_IDS.featureId(initialFinding(p)) && e.present), JSON.stringify(h.evidence));
      assert.deepEqual(h.turns.map((t) => t.kind), ['start', 'answers', 'answers']);
      assert.deepEqual(h.turns.map((t) => t.answers.map((a) => a.questionId)), [[], [started.questions[0]!.id], [q.id]]);
      assert.ok(h.turns[1]!.answers[0]!.question.length > 3);
      // Each turn keeps the top of its differential.
      assert.deepEqual(h.turns[0]!.differential, started.differential.slice(0, h.turns[0]!.differential.length));
      assert.deepEqual(h.turns[1]!.differential, afterOne.differential.slice(0, h.turns[1]!.differential.length));
      assert.ok(h.turns[0]!.differential.length >= 3);
      assert.deepEqual(h.turns[0]!.questions, started.questions.map((x) => x.id));
      assert.deepEqual(h.differential, second.json.differential);
      assert.equal(h.answered, 2);
      assert.ok(Date.parse(h.expiresAt) - Date.parse(h.createdAt) >= 30 * 60_000 - 1000);
    });
  });

  it('an unknown session id is a 404 on every session route', async () => {
    for (const [method, path, body] of [
      ['GET', '/v1/sessions/00000000-0000-4000-8000-000000000000', undefined],
      ['POST', '/v1/sessions/00000000-0000-4000-8000-000000000000/answers', { answers: [{ questionId: 'q:E_91', answer: { type: 'yes' } }] }],
      ['GET', '/v1/sessions/not-a-session', undefined],
    ] as const) {
      const r = await call(method, `${server.url}${path}`, body);
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
      assert.equal(r.json.error.code, 'NOT_FOUND');
    }
  });

  it('sessions follow the configured TTL, bound, stop confidence and ranker; an expired id is a 404', async () => {
    const p = heldOut[1]!;
    const start = { findings: [coded(initialFinding(p))], age: p.age, sex: p.sex };
    const r = await call('POST', `${shortLived.url}/v1/sessions`, start);
    assert.equal(r.status, 201, r.text);
    const s = SessionViewSchema.parse(r.json);
    assert.equal(s.ranker, 'sigma');
    assert.ok(s.questions.every((q) => q.ranker === 'sigma'));
    assert.equal(s.stop.confidence, 0.6);
    assert.equal(Date.parse(s.expiresAt) - Date.parse(s.createdAt), 1000);
    // Used within the TTL: still there (and the expiry slides).
    await new Promise((res) => setTimeout(res, 600));
    assert.equal((await call('GET', `${shortLived.url}/v1/sessions/${s.sessionId}`)).status, 200);
    await new Promise((res) => setTimeout(res, 600));
    assert.equal((await call('GET', `${shortLived.url}/v1/sessions/${s.sessionId}`)).status, 200, 'the TTL slides with use');
    await new Promise((res) => setTimeout(res, 1200));
    const gone = await call('GET', `${shortLived.url}/v1/sessions/${s.sessionId}`);
    assert.equal(gone.status, 404, gone.text);
    const q = s.questions[0]!;
    assert.equal((await call('POST', `${shortLived.url}/v1/sessions/${s.sessionId}/answers`, { answers: [{ questionId: q.id, answer: { type: 'no' } }] })).status, 404);
    // Bounded at 2: a third session is refused (503, Retry-After); nobody's live session is evicted.
    const made: Reply[] = [];
    for (let i = 0; i < 3; i++) made.push(await call('POST', `${shortLived.url}/v1/sessions`, start));
    assert.deepEqual(made.map((m) => m.status), [201, 201, 503]);
    assert.equal(made[2]!.json.error.code, 'SESSION_CAPACITY');
    assert.deepEqual(await Promise.all(made.slice(0, 2).map(async (m) => (await call('GET', `${shortLived.url}/v1/sessions/${m.json.sessionId}`)).status)), [200, 200]);
  });

  it('the response signals stop once the top disease passes the confidence, and the confident answer is mostly right', async () => {
    let stopped = 0;
    let rightAtStop = 0;
    let top1At0 = 0;
    let top1At5 = 0;
    const asked: number[] = [];
    for (const p of heldOut.slice(0, STOP_PATIENTS)) {
      // DDXPlus's interactive protocol: age, sex and the initial evidence only, one question per turn.
      const r = await call('POST', `${server.url}/v1/sessions`, { findings: [coded(initialFinding(p))], age: p.age, sex: p.sex, followUps: 1 });
      assert.equal(r.status, 201, r.text);
      let view = SessionViewSchema.parse(r.json);
      if (view.differential[0]?.diseaseId === truth(p)) top1At0++;
      let topAt5 = '';
      for (let n = 0; n < 20; n++) {
        // After 5 questions, or fewer when the session said stop before.
        if (n <= 5) topAt5 = view.differential[0]!.diseaseId;
        assert.equal(view.stop.topProbability, view.differential[0]!.probability);
        if (view.stop.stop) break;
        assert.ok(view.stop.topProbability < 0.9 && view.stop.reason === null, JSON.stringify(view.stop));
        const q = view.questions[0]!;
        const next = await call('POST', `${server.url}/v1/sessions/${view.sessionId}/answers`, { answers: [{ questionId: q.id, answer: patientAnswer(q, p, KG_BUILD_IDS) }] });
        assert.equal(next.status, 200, next.text);
        view = SessionViewSchema.parse(next.json);
      }
      if (topAt5 === truth(p)) top1At5++;
      if (view.stop.stop) {
        assert.equal(view.stop.reason, 'confident');
        assert.ok(view.stop.topProbability >= 0.9);
        stopped++;
        asked.push(view.answered);
        if (view.differential[0]!.diseaseId === truth(p)) rightAtStop++;
      }
    }
    const n = STOP_PATIENTS;
    process.stderr.write(
      `    [sessions-int] ${n} held-out patients, information gain: top-1 ${top1At0}/${n} after 0, ${top1At5}/${n} after 5 questions (or the stop); ` +
        `confident stop for ${stopped}/${n} after ${(asked.reduce((a, b) => a + b, 0) / Math.max(1, asked.length)).toFixed(1)} questions on average, right ${rightAtStop}/${stopped}\n`,
    );
    assert.ok(stopped >= n * 0.6, `only ${stopped}/${n} reached the confidence within 20 questions`);
    assert.ok(rightAtStop >= stopped * 0.7, `right at stop ${rightAtStop}/${stopped}`);
  });

  it('/v1/diagnose follow-ups: information gain by default, sigma on request', async () => {
    const p = heldOut[2]!;
    const byDefault = await call('POST', `${server.url}/v1/diagnose`, { text: p.text, options: { followUps: 3 } });
    const sigma = await call('POST', `${server.url}/v1/diagnose`, { text: p.text, options: { followUps: 3, followUpRanker: 'sigma' } });
    assert.equal(byDefault.status, 200, byDefault.text);
    assert.equal(sigma.status, 200, sigma.text);
    assert.ok(byDefault.json.followUps.length > 0 && byDefault.json.followUps.every((q: any) => q.ranker === 'information-gain'));
    assert.ok(sigma.json.followUps.length > 0 && sigma.json.followUps.every((q: any) => q.ranker === 'sigma'));
    assert.deepEqual(sigma.json.differential, byDefault.json.differential);
    process.stderr.write(`    [sessions-int] /v1/diagnose followUps stage: information gain ${byDefault.json.trace.timingsMs.followUps} ms, sigma ${sigma.json.trace.timingsMs.followUps} ms\n`);
    const bad = await call('POST', `${server.url}/v1/diagnose`, { text: p.text, options: { followUpRanker: 'random' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.field, 'options.followUpRanker');
  });
});
