import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { loadConfig, type Config } from '../../src/config.js';
import { SessionConflictError, SessionLimitError } from '../../src/sessions/errors.js';
import { Neo4jSessionRepository } from '../../src/sessions/neo4j-repository.js';
import { SessionKey } from '../../src/sessions/sealed-content.js';
import { hashUnit } from '../../src/sources/split.js';
import { buildDdxplusKg } from '../support/ddxplus-build.js';
import { startServeProcess, type ServeProcess } from '../../bench/lib/serve-process.js';
import { startComposeLb } from '../support/compose-lb.js';
import { firstDifference } from '../support/first-difference.js';

/**
 * Replicas (issue 28), without Docker: two REAL `dxgraph serve` processes, each in its own
 * working folder as on its own host, on one Neo4j and one shared build folder
 * (DXGRAPH_DATA_DIR), sessions in Neo4j. A session moves between them, survives a restart,
 * cannot take two answers for one turn, is unreadable in Neo4j, and ends clearly after a rebuild.
 */
const KEY_A = 'replica-test-key-Aq8vR2xLp0wT7nYc';
const KEY_B = 'replica-test-key-Bb4sJ9mQe6uV1dGa';
const TEXT = 'I have a sharp chest pain that gets worse when I breathe in, and a dry cough';

interface Reply {
  status: number;
  json: any;
}

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, key: string, body?: unknown): Promise<Reply> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** The first offered question answered in the simplest valid way. */
function firstAnswer(view: any): { questionId: string; answer: unknown } {
  const q = view.questions[0];
  return { questionId: q.id, answer: q.answerType === 'yes-no' ? { type: 'yes' } : q.answerType === 'number' ? { type: 'number', value: 3 } : { type: 'options', optionIds: [q.options[0].id] } };
}

describe('replicas: two dxgraph serve processes, one Neo4j, one shared build folder', function () {
  this.timeout(600_000);
  const sessionKey = randomBytes(32).toString('hex');
  let dataDir: string;
  let hosts: string[];
  let env: NodeJS.ProcessEnv;
  let config: Config;
  let a: ServeProcess;
  let b: ServeProcess;
  let graph: GraphStore;
  let session: any;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dx-replicas-build-'));
    hosts = [mkdtempSync(join(tmpdir(), 'dx-replica-a-')), mkdtempSync(join(tmpdir(), 'dx-replica-b-'))];
    env = {
      ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LOG_LEVEL: 'info',
      DXGRAPH_SESSIONS: 'neo4j', DXGRAPH_SESSION_KEY: sessionKey, DXGRAPH_API_KEYS: `${KEY_A},${KEY_B}`, DXGRAPH_RATE_LIMIT_MAX: '0',
      // Replica A runs diagnose on its event loop, B on one worker thread and one low-priority one (fewer thread start-ups for A's restarts).
      DXGRAPH_QUERY_WORKERS: '0',
    };
    config = loadConfig(env);
    // The build job runs once; the replicas only read its KG and artifacts. The served gate is off by
    // default, so its training would change no answer here (its stories: gate.test.ts).
    await buildDdxplusKg(config, (r) => hashUnit(21, r.id) < 0.25, { gate: false });
    [a, b] = await Promise.all([startServeProcess(env, hosts[0]!), startServeProcess({ ...env, DXGRAPH_QUERY_WORKERS: '1', DXGRAPH_QUERY_WORKERS_BACKGROUND: '1' }, hosts[1]!)]);
    graph = new GraphStore(config.neo4j);
    await graph.connect();
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await graph?.runText('MATCH (s:ConsultationSession) DELETE s', {}, 'WRITE');
    await graph?.close();
    for (const d of [dataDir, ...(hosts ?? [])]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('a session started on one replica is answered on the other and read back on the first; another key gets 404 on both', async () => {
    const started = await call('POST', `${a.url}/v1/sessions`, KEY_A, { text: TEXT, age: 40, sex: 'F' });
    assert.equal(started.status, 201);
    assert.equal(started.json.version, 1);
    assert.match(started.json.buildId, /^kg-/);
    const answered = await call('POST', `${b.url}/v1/sessions/${started.json.sessionId}/answers`, KEY_A, { answers: [firstAnswer(started.json)] });
    assert.equal(answered.status, 200, JSON.stringify(answered.json));
    assert.equal(answered.json.version, 2);
    assert.equal(answered.json.answered, 1);
    const history = await call('GET', `${a.url}/v1/sessions/${started.json.sessionId}`, KEY_A);
    assert.equal(history.status, 200);
    assert.equal(history.json.description.text, TEXT);
    assert.deepEqual(history.json.turns.map((t: any) => t.kind), ['start', 'answers']);
    for (const r of [a, b]) assert.equal((await call('GET', `${r.url}/v1/sessions/${started.json.sessionId}`, KEY_B)).status, 404);
    session = answered.json;
  });

  it('diagnose on a worker thread (B) answers exactly as on the event loop (A), and the health probe answers meanwhile', async () => {
    assert.match(a.log(), /"queryWorkers":0/);
    assert.match(b.log(), /"queryWorkers":1,"backgroundWorkers":1/);
    // The background lane's thread lowered its own priority (Linux: nice is per thread), the process did not.
    const niceOf = (tid: string) => Number(readFileSync(`/proc/${b.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    assert.equal(niceOf(String(b.pid)), 0, 'the main thread keeps its priority');
    const nices = readdirSync(`/proc/${b.pid}/task`).map(niceOf);
    assert.ok(nices.includes(10), `a thread at nice 10: ${nices.join(',')}`);
    const body = { text: TEXT, age: 40, sex: 'F' };
    // Two at once from one key on B: while the first runs, the second goes to the background worker.
    const [x, y, y2, health] = await Promise.all([call('POST', `${a.url}/v1/diagnose`, KEY_A, body), call('POST', `${b.url}/v1/diagnose`, KEY_A, body), call('POST', `${b.url}/v1/diagnose`, KEY_A, body), fetch(`${b.url}/healthz`)]);
    assert.equal(x.status, 200);
    assert.equal(health.status, 200);
    // B renders the body in its worker (diagnose-json.ts), A on its event loop: the same answer, stage timings apart.
    const untimed = (body: any) => JSON.stringify(body, (k, v) => (k === 'timingsMs' ? undefined : v));
    for (const [lane, body] of [['first', y.json], ['second', y2.json]] as const) {
      if (untimed(body) !== untimed(x.json)) assert.fail(`B's ${lane} lane answered otherwise than A, first at ${firstDifference(JSON.parse(untimed(body)), JSON.parse(untimed(x.json)))}`);
    }
    assert.ok(x.json.differential.length > 0);
    const bad = await call('POST', `${b.url}/v1/diagnose`, KEY_A, { findings: Array.from({ length: 3 }, () => ({ text: 'x' })), options: { reasoner: 'llm' } });
    assert.equal(bad.status, 400, 'an InputError raised in the worker is still a 400');
    assert.equal(bad.json.error.field, 'options.reasoner');
  });

  it('Neo4j holds the session sealed: no description, answer or differential readable, only ids, owner digest, build, times, version', async () => {
    const [row] = await graph.runText('MATCH (s:ConsultationSession {id: $id}) RETURN properties(s) AS p', { id: session.sessionId }, 'READ');
    const p = row!.p as Record<string, unknown>;
    assert.deepEqual(Object.keys(p).sort(), ['buildId', 'content', 'createdAt', 'expiresAt', 'id', 'owner', 'touchedAt', 'version']);
    const everything = JSON.stringify(p);
    for (const secret of ['chest', 'cough', session.differential[0].diseaseId, session.questions[0]?.id ?? 'q:', KEY_A]) assert.ok(!everything.includes(secret), `readable in Neo4j: ${secret}`);
    assert.match(String(p.content), /^v1\./);
    for (const r of [a, b]) assert.ok(!r.log().includes(sessionKey) && !r.log().includes('chest pain'), 'the key or patient text in a log');
  });

  it('behind the compose\'s own nginx (deploy/nginx.conf): requests reach both replicas, a session lives through the balancer, with one replica down every request is still answered, and the restarted replica continues the session', async () => {
    const lb = await startComposeLb({ a: a.url, b: b.url });
    try {
      const served = (r: ServeProcess) => (r.log().match(/"route":"\/v1\/diagnose"/g) ?? []).length;
      // A request's log line is written when its response finishes and reaches us through a pipe: wait for it.
      const logged = async (want: number, count: () => number) => {
        for (let i = 0; i < 50 && count() < want; i++) await new Promise((r) => setTimeout(r, 40));
      };
      const before = [served(a), served(b)];
      const body = { text: TEXT, age: 40, sex: 'F' };
      for (let i = 0; i < 4; i++) assert.equal((await call('POST', `${lb.url}/v1/diagnose`, KEY_A, body)).status, 200);
      await logged(4, () => served(a) - before[0]! + served(b) - before[1]!);
      assert.deepEqual([served(a) - before[0]!, served(b) - before[1]!], [2, 2], 'round robin over the two replicas');
      let view = (await call('POST', `${lb.url}/v1/sessions`, KEY_A, { text: TEXT })).json;
      for (let turn = 0; turn < 2; turn++) {
        const r = await call('POST', `${lb.url}/v1/sessions/${view.sessionId}/answers`, KEY_A, { version: view.version, answers: [firstAnswer(view)] });
        assert.equal(r.status, 200, JSON.stringify(r.json));
        view = r.json;
      }
      assert.equal(view.version, 3);
      // Replica A goes away (a host lost): nginx skips it (passive check) and nothing fails.
      assert.equal(await a.stop(), 0);
      const downBefore = served(b);
      for (let i = 0; i < 4; i++) assert.equal((await call('POST', `${lb.url}/v1/diagnose`, KEY_A, body)).status, 200);
      const viaB = await call('POST', `${lb.url}/v1/sessions/${view.sessionId}/answers`, KEY_A, { version: view.version, answers: [firstAnswer(view)] });
      assert.equal(viaB.status, 200, JSON.stringify(viaB.json));
      assert.equal(viaB.json.version, 4);
      await logged(4, () => served(b) - downBefore);
      assert.equal(served(b) - downBefore, 4, 'B answered every diagnose while A was down');
      assert.match(lb.errorLog(), /connect\(\) failed/, 'nginx saw A refuse and moved on');
      assert.ok(!lb.errorLog().includes('chest'), 'no patient text in the balancer\'s log');
    } finally {
      await lb.stop();
      if ((await fetch(`${a.url}/healthz`).then(() => true, () => false)) === false) a = await startServeProcess(env, hosts[0]!);
    }
    // Restarting a replica loses nothing: the session started before continues on the new process.
    const next = await call('POST', `${a.url}/v1/sessions/${session.sessionId}/answers`, KEY_A, { answers: [firstAnswer(session)] });
    assert.equal(next.status, 200, JSON.stringify(next.json));
    assert.equal(next.json.version, 3);
    assert.equal(next.json.answered, 2);
    session = next.json;
  });

  it('two answers to the same turn on both replicas at once: one is recorded, the other is a 409 SESSION_CONFLICT', async () => {
    const q = session.questions.slice(0, 2);
    assert.equal(q.length, 2);
    const answer = (r: ServeProcess, i: number) => call('POST', `${r.url}/v1/sessions/${session.sessionId}/answers`, KEY_A, { version: session.version, answers: [firstAnswer({ questions: [q[i]] })] });
    const replies = await Promise.all([answer(a, 0), answer(b, 1)]);
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409]);
    assert.equal(replies.find((r) => r.status === 409)!.json.error.code, 'SESSION_CONFLICT');
    const h = await call('GET', `${b.url}/v1/sessions/${session.sessionId}`, KEY_A);
    assert.equal(h.json.version, 4);
    assert.equal(h.json.turns.length, 4, 'start + three answer turns, none lost or doubled');
    session = h.json;
  });

  it('the store on real Neo4j: of 8 concurrent saves of one version exactly one wins; creates never pass the quota', async () => {
    const key = SessionKey.parse(randomBytes(32).toString('hex'))!;
    const repo = await Neo4jSessionRepository.open<string>({ graph, key, codec: { encode: (s) => s, decode: (s) => s }, maxSessions: 1000, maxPerOwner: 3, ttlMs: 60_000, lifetimeMs: 600_000 });
    const s = await repo.create('key:race', null, 'v1');
    const saves = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => repo.save(s, `w${i}`)));
    assert.equal(saves.filter((r) => r.status === 'fulfilled').length, 1);
    assert.ok(saves.every((r) => r.status === 'fulfilled' || r.reason instanceof SessionConflictError));
    const winner = (saves.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ value: string }>).value.value;
    assert.deepEqual([(await repo.get(s.id, 'key:race')).value, (await repo.get(s.id, 'key:race')).version], [winner, 2]);
    const creates = await Promise.allSettled(Array.from({ length: 6 }, () => repo.create('key:quota', null, 'x')));
    assert.equal(creates.filter((r) => r.status === 'fulfilled').length, 3);
    assert.ok(creates.every((r) => r.status === 'fulfilled' || (r.reason instanceof SessionLimitError && r.reason.limit === 'session-quota')));
  });

  it('expiry is the store\'s: an expired session is unreadable at once and then purged from Neo4j', async () => {
    const clock = { t: Date.now() };
    const key = SessionKey.parse(randomBytes(32).toString('hex'))!;
    const repo = await Neo4jSessionRepository.open<string>({ graph, key, codec: { encode: (s) => s, decode: (s) => s }, maxSessions: 1000, maxPerOwner: 3, ttlMs: 1000, lifetimeMs: 600_000, now: () => clock.t });
    const s = await repo.create('key:expiry', null, 'soon gone');
    clock.t += 999;
    assert.equal((await repo.get(s.id, 'key:expiry')).value, 'soon gone', 'read just before the TTL (and refreshed)');
    clock.t += 1000;
    await assert.rejects(repo.get(s.id, 'key:expiry'), /not found or expired/);
    assert.ok((await repo.purgeExpired()) >= 1);
    assert.equal((await graph.runText('MATCH (s:ConsultationSession {id: $id}) RETURN s', { id: s.id }, 'READ')).length, 0);
  });

  it('after a new build, a restarted replica serves it: new sessions start on it, the old session ends with 410 (its history stays readable)', async () => {
    const old = session.buildId;
    // The replica goes away while the build job runs (it reads the build only when it starts again).
    const [stopped] = await Promise.all([a.stop(), buildDdxplusKg(config, (r) => hashUnit(22, r.id) < 0.25, { gate: false })]);
    assert.equal(stopped, 0);
    a = await startServeProcess(env, hosts[0]!);
    const fresh = await call('POST', `${a.url}/v1/sessions`, KEY_A, { text: TEXT });
    assert.equal(fresh.status, 201);
    assert.notEqual(fresh.json.buildId, old);
    const retired = await call('POST', `${a.url}/v1/sessions/${session.sessionId}/answers`, KEY_A, { answers: [firstAnswer({ questions: [session.questions[0] ?? fresh.json.questions[0]] })] });
    assert.equal(retired.status, 410);
    assert.equal(retired.json.error.code, 'SESSION_BUILD_RETIRED');
    const h = await call('GET', `${a.url}/v1/sessions/${session.sessionId}`, KEY_A);
    assert.equal(h.status, 200);
    assert.equal(h.json.buildId, old);
    assert.equal((await call('DELETE', `${a.url}/v1/sessions/${session.sessionId}`, KEY_A)).status, 204);
  });
});
