import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type DxServer } from '../../src/server.js';
import { SessionHistorySchema, SessionViewSchema } from '../../src/sessions/schemas.js';
import { splitFilter } from '../../src/sources/split.js';
import { loadDdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';
import { ddxplusAnswerType } from '../../src/sources/ddxplus/render.js';
import { buildDdxplusKg, DDXPLUS_SAMPLE } from '../support/ddxplus-build.js';
import { questionProblems } from '../../src/presentation/voice-checks.js';

/**
 * Issue 19 (one consistent consultation) and issue 18 (session limits) on a REAL build: the
 * train part of the demo's 60/40 split of the shipped DDXPlus sample in the test Neo4j with
 * real FAISS indexes, served by the real server on port 0.
 *  - Everyday complaints in free text, negations included: a new session and /v1/diagnose
 *    with the same body give the same differential (so the same top disease), every time.
 *  - With API keys: another key's session is a 404, the per-key quota (429), the turn cap
 *    (409) and the absolute lifetime hold.
 */
const SPLIT = { seed: 1, testFraction: 0.4 };
const KEY_1 = 'session-key-one-7Hq2LmV9xR';
const KEY_2 = 'session-key-two-3Wp8ZcN4tJ';

const COMPLAINTS: { text: string; age: number; sex: 'M' | 'F' }[] = [
  { text: 'Fever and sore throat, pain when swallowing. No cough.', age: 40, sex: 'F' },
  { text: 'Sharp chest pain, worse when breathing in, better leaning forward. No cough.', age: 35, sex: 'M' },
  { text: 'Runny nose, sneezing and a mild cough for two days. No fever.', age: 28, sex: 'F' },
  { text: 'Burning pain in the upper abdomen after meals, sour taste in the mouth.', age: 52, sex: 'M' },
  { text: 'Short of breath and wheezing, worse at night. No fever.', age: 19, sex: 'F' },
  { text: 'Headache, fever and muscle aches, very tired. No rash.', age: 33, sex: 'M' },
  { text: 'Cough with green sputum and fever for five days. No chest pain.', age: 67, sex: 'F' },
  { text: 'Itchy rash and swollen lips after eating peanuts.', age: 24, sex: 'M' },
  { text: 'Palpitations, my heart is racing and I feel faint. No chest pain.', age: 58, sex: 'F' },
  { text: 'Swollen painful calf after a long flight, no injury.', age: 45, sex: 'F' },
  { text: 'Diarrhea, nausea and cramping belly pain since yesterday, no blood in the stool.', age: 30, sex: 'M' },
  { text: 'I have a cough and a fever. I do not smoke.', age: 71, sex: 'M' },
];

interface Reply {
  status: number;
  json: any;
  text: string;
  retryAfter: string | null;
}

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, key: string | null, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, text, retryAfter: res.headers.get('retry-after') };
}

describe('consultation sessions and /v1/diagnose agree; per-key session limits (real build, Neo4j, FAISS, port 0)', function () {
  this.timeout(600_000);
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let server: DxServer;
  let keyed: DxServer;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dx-sessions-agree-'));
    env = { ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' };
    const config: Config = loadConfig(env);
    await buildDdxplusKg(config, splitFilter({ ...SPLIT, part: 'train' }), { gate: false });
    server = await startServer({ config, logger: createLogger({ level: 'silent' }), port: 0 });
    const limits = { DXGRAPH_API_KEYS: `${KEY_1},${KEY_2}`, DXGRAPH_SESSION_MAX_PER_KEY: '3', DXGRAPH_SESSION_MAX_TURNS: '4', DXGRAPH_SESSION_LIFETIME_MS: '3000' };
    keyed = await startServer({ config: loadConfig({ ...env, ...limits }), logger: createLogger({ level: 'silent' }), port: 0 });
  });

  after(async () => {
    // lingerMs 0: a teardown; no client sends another request on an idle kept-alive socket, so no 1 s linger.
    await keyed?.close({ drainMs: 1000, lingerMs: 0 });
    await server?.close({ drainMs: 1000, lingerMs: 0 });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${COMPLAINTS.length} everyday complaints in free text: a new session starts from exactly /v1/diagnose's differential`, async () => {
    let agree = 0;
    const lines: string[] = [];
    for (const body of COMPLAINTS) {
      const d = await call('POST', `${server.url}/v1/diagnose`, null, body);
      const s = await call('POST', `${server.url}/v1/sessions`, null, body);
      assert.equal(d.status, 200, d.text);
      assert.equal(s.status, 201, s.text);
      const view = SessionViewSchema.parse(s.json);
      assert.ok(d.json.differential.length >= 3, `diagnose ranks diseases for "${body.text}"`);
      assert.deepEqual(
        view.differential.map((x) => [x.diseaseId, x.probability]),
        d.json.differential.map((x: any) => [x.diseaseId, x.score]),
        `same differential for "${body.text}"`,
      );
      assert.equal(view.stop.topProbability, d.json.differential[0].score);
      if (view.differential[0]!.diseaseId === d.json.differential[0].diseaseId) agree++;
      lines.push(`${view.differential[0]!.disease} ${(view.differential[0]!.probability * 100).toFixed(0)}%`);
    }
    assert.equal(agree, COMPLAINTS.length);
    process.stderr.write(`    [sessions-agree] top disease agrees ${agree}/${COMPLAINTS.length}: ${lines.join(' | ')}\n`);
  });

  it("questions carry the answer type DDXPlus declares (data_type B/C/M), read from the KG's feature nodes", async () => {
    const dict = await loadDdxplusDictionary(DDXPLUS_SAMPLE);
    const declared = server.query.snapshot.features.filter((f) => f.code !== null && f.kind === 'ehr');
    assert.ok(declared.length > 50 && declared.every((f) => f.answerType === ddxplusAnswerType(dict.evidences.get(f.code!)!)), 'every coded feature node carries its type');
    const byType = new Map<string, number>();
    for (const body of COMPLAINTS) {
      const s = SessionViewSchema.parse((await call('POST', `${server.url}/v1/sessions`, null, { ...body, followUps: 20 })).json);
      for (const q of s.questions) {
        // A choice question with a single value in the graph (Y/N questions keep only "yes") is asked as yes/no.
        const single = q.answerType === 'yes-no' && server.query.snapshot.features.filter((f) => f.code === q.id.slice(2)).length === 1;
        assert.equal(single ? 'yes-no' : q.answerType, single ? 'yes-no' : ddxplusAnswerType(dict.evidences.get(q.id.slice(2))!), q.id);
        if (q.answerType !== 'yes-no') assert.ok(q.options.length >= 2, JSON.stringify(q));
        // One clinical voice (issue 48): a question to the clinician about the patient.
        assert.deepEqual(questionProblems(q.text), [], q.text);
        byType.set(q.answerType, (byType.get(q.answerType) ?? 0) + 1);
      }
    }
    process.stderr.write(`    [sessions-agree] answer types of the questions offered: ${JSON.stringify(Object.fromEntries(byType))}\n`);
    assert.ok(byType.size >= 3, 'yes/no, choice and number questions are offered');
  });

  it('answers then update that differential', async () => {
    const s = SessionViewSchema.parse((await call('POST', `${server.url}/v1/sessions`, null, COMPLAINTS[0])).json);
    const q = s.questions[0]!;
    const answer = q.answerType === 'yes-no' ? { type: 'no' } : { type: 'options', optionIds: [q.options[0]!.id] };
    const r = await call('POST', `${server.url}/v1/sessions/${s.sessionId}/answers`, null, { answers: [{ questionId: q.id, answer }] });
    assert.equal(r.status, 200, r.text);
    assert.notDeepEqual(r.json.differential, s.differential, 'the answer moved the differential');
  });

  it("another key's session is a 404 on read, answer and delete, like an unknown id; its owner still has it", async () => {
    const s = await call('POST', `${keyed.url}/v1/sessions`, KEY_1, COMPLAINTS[1]);
    assert.equal(s.status, 201, s.text);
    const id = s.json.sessionId;
    const q = s.json.questions[0];
    const foreign = await call('GET', `${keyed.url}/v1/sessions/${id}`, KEY_2);
    const unknown = await call('GET', `${keyed.url}/v1/sessions/00000000-0000-4000-8000-000000000000`, KEY_2);
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.json, unknown.json);
    assert.ok(!foreign.text.includes('chest'), 'no patient text in the refusal');
    assert.equal((await call('POST', `${keyed.url}/v1/sessions/${id}/answers`, KEY_2, { answers: [{ questionId: q.id, answer: { type: 'unknown' } }] })).status, 404);
    assert.equal((await call('DELETE', `${keyed.url}/v1/sessions/${id}`, KEY_2)).status, 404);
    assert.equal((await call('GET', `${keyed.url}/v1/sessions/${id}`, null)).status, 401);
    const own = await call('GET', `${keyed.url}/v1/sessions/${id}`, KEY_1);
    assert.equal(own.status, 200, own.text);
    assert.equal(SessionHistorySchema.parse(own.json).description.text, COMPLAINTS[1]!.text);
    assert.equal((await call('DELETE', `${keyed.url}/v1/sessions/${id}`, KEY_1)).status, 204);
  });

  it('per-key quota: the 4th live session of a key is a 429 with Retry-After, the other key is unaffected; ending one frees a place', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await call('POST', `${keyed.url}/v1/sessions`, KEY_1, COMPLAINTS[i]);
      assert.equal(r.status, 201, r.text);
      ids.push(r.json.sessionId);
    }
    const over = await call('POST', `${keyed.url}/v1/sessions`, KEY_1, COMPLAINTS[3]);
    assert.equal(over.status, 429, over.text);
    assert.equal(over.json.error.code, 'SESSION_QUOTA');
    assert.ok(Number(over.retryAfter) > 0, `Retry-After ${over.retryAfter}`);
    const other = await call('POST', `${keyed.url}/v1/sessions`, KEY_2, COMPLAINTS[3]);
    assert.equal(other.status, 201, other.text);
    for (const id of ids) assert.equal((await call('GET', `${keyed.url}/v1/sessions/${id}`, KEY_1)).status, 200, 'nothing of key 1 was evicted');
    assert.equal((await call('DELETE', `${keyed.url}/v1/sessions/${ids[0]}`, KEY_1)).status, 204);
    assert.equal((await call('POST', `${keyed.url}/v1/sessions`, KEY_1, COMPLAINTS[3])).status, 201);
    for (const id of [...ids.slice(1)]) await call('DELETE', `${keyed.url}/v1/sessions/${id}`, KEY_1);
  });

  it('turn cap: flipping an answer back and forth stops at 4 turns (409), the history stays at start + 4', async () => {
    const s = await call('POST', `${keyed.url}/v1/sessions`, KEY_2, COMPLAINTS[4]);
    assert.equal(s.status, 201, s.text);
    const id = s.json.sessionId;
    const q = s.json.questions.find((x: any) => x.answerType === 'yes-no') ?? s.json.questions[0];
    const flip = (i: number) => ({ answers: [{ questionId: q.id, answer: i % 2 === 0 ? { type: 'unknown' } : { type: 'no' } }] });
    for (let i = 0; i < 4; i++) assert.equal((await call('POST', `${keyed.url}/v1/sessions/${id}/answers`, KEY_2, flip(i))).status, 200);
    const capped = await call('POST', `${keyed.url}/v1/sessions/${id}/answers`, KEY_2, flip(4));
    assert.equal(capped.status, 409, capped.text);
    assert.equal(capped.json.error.code, 'SESSION_TURN_LIMIT');
    const h = SessionHistorySchema.parse((await call('GET', `${keyed.url}/v1/sessions/${id}`, KEY_2)).json);
    assert.equal(h.turns.length, 5);
    assert.equal(h.turnsLeft, 0);
  });

  it('the attack of issue 18 (one answer flipped as fast as possible) stops at the default 200 recorded answers, the history stays small', async () => {
    const s = await call('POST', `${server.url}/v1/sessions`, null, COMPLAINTS[6]);
    const id = s.json.sessionId;
    const q = s.json.questions.find((x: any) => x.answerType === 'yes-no') ?? s.json.questions[0];
    const t0 = Date.now();
    let ok = 0;
    let last: Reply = s;
    for (let i = 0; i < 260; i++) {
      last = await call('POST', `${server.url}/v1/sessions/${id}/answers`, null, { answers: [{ questionId: q.id, answer: i % 2 === 0 ? { type: 'unknown' } : { type: 'no' } }] });
      if (last.status !== 200) break;
      ok++;
    }
    assert.equal(ok, 200);
    assert.equal(last.status, 409);
    const h = await call('GET', `${server.url}/v1/sessions/${id}`, null);
    assert.equal(h.json.turns.length, 201);
    process.stderr.write(`    [sessions-agree] flip attack: ${ok} answers accepted in ${Date.now() - t0} ms, then 409; GET ${(h.text.length / 1024).toFixed(0)} KiB\n`);
    assert.ok(h.text.length < 512 * 1024, `history ${h.text.length} bytes`);
  });

  it('absolute lifetime: a session polled every 500 ms still ends at its 3 s lifetime', async () => {
    const s = await call('POST', `${keyed.url}/v1/sessions`, KEY_2, COMPLAINTS[5]);
    assert.equal(s.status, 201, s.text);
    const id = s.json.sessionId;
    assert.equal(Date.parse(s.json.expiresAt) - Date.parse(s.json.createdAt), 3000);
    const t0 = Date.now();
    const statuses: number[] = [];
    while (Date.now() - t0 < 4000) {
      statuses.push((await call('GET', `${keyed.url}/v1/sessions/${id}`, KEY_2)).status);
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.equal(statuses[0], 200);
    assert.equal(statuses.at(-1), 404);
    assert.ok(statuses.indexOf(404) >= 4, JSON.stringify(statuses));
  });
});
