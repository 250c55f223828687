import { strict as assert } from 'node:assert';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { InputError, NotFoundError } from '../../src/errors.js';
import { requireApiKey } from '../../src/http/access.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { createLogger } from '../../src/logger.js';
import type { ConsultationPort } from '../../src/sessions/consultation.js';
import { SessionBuildError, SessionConflictError, SessionLimitError } from '../../src/sessions/errors.js';
import { LOCAL_OWNER, ownerOfKey, sessionOwner } from '../../src/sessions/owner.js';
import { createSessionRouter } from '../../src/sessions/routes.js';
import type { AnswersRequest, SessionHistory, SessionView, StartSessionRequest } from '../../src/sessions/schemas.js';

const KEY_1 = 'k1-Zq8vR2xLp0wT7nYc';
const KEY_2 = 'k2-Hb4sJ9mQe6uV1dGa';

/**
 * A fake consultation recording calls: sessions are "<n>" owned by whoever started them;
 * question "q:E_1" is the only one; "q:E_8" hits the turn cap; a start past 2 per owner hits the quota;
 * answers naming version 1 lost a race; "q:E_7" answers a session of a retired build.
 */
class FakeConsultation implements ConsultationPort {
  calls: string[] = [];
  owners = new Map<string, string>();
  view(id: string): SessionView {
    return {
      sessionId: id, createdAt: '2025-01-01T00:00:00.000Z', expiresAt: '2025-01-01T00:30:00.000Z', ranker: 'information-gain',
      differential: [{ diseaseId: 'dis:a', disease: 'A', probability: 1 }], questions: [], answered: 0, turnsLeft: 5, insufficient: null, version: 1, buildId: 'kg-1',
      stop: { stop: true, reason: 'confident', topProbability: 1, confidence: 0.9 },
    };
  }
  private own(owner: string, id: string): void {
    if (this.owners.get(id) !== owner) throw new NotFoundError('session not found or expired');
  }
  async start(owner: string, req: StartSessionRequest): Promise<SessionView> {
    if ([...this.owners.values()].filter((o) => o === owner).length >= 2) throw new SessionLimitError('session-quota', 'session quota reached');
    const id = String(this.owners.size + 1);
    this.owners.set(id, owner);
    this.calls.push(`start:${req.ranker ?? 'default'}:${req.findings?.length ?? 0}`);
    return this.view(id);
  }
  async answer(owner: string, id: string, req: AnswersRequest): Promise<SessionView> {
    this.own(owner, id);
    if (req.answers.some((a) => a.questionId === 'q:E_8')) throw new SessionLimitError('session-turns', 'turn limit reached');
    if (req.version === 1) throw new SessionConflictError('the session changed since it was read', 2);
    if (req.answers.some((a) => a.questionId === 'q:E_7')) throw new SessionBuildError('kg-old', 'kg-new');
    if (req.answers.some((a) => a.questionId === 'q:E_6')) throw new SessionBuildError('kg-new', 'kg-old', true);
    if (req.answers.some((a) => a.questionId !== 'q:E_1')) throw new InputError('unknown question id', { field: 'answers.0.questionId' });
    this.calls.push(`answer:${id}`);
    return this.view(id);
  }
  async get(owner: string, id: string): Promise<SessionHistory> {
    this.own(owner, id);
    return { ...this.view(id), description: { text: null, findings: [], age: null, sex: null }, evidence: [], turns: [] };
  }
  async end(owner: string, id: string): Promise<void> {
    this.own(owner, id);
    this.owners.delete(id);
  }
}

async function serve(fake: ConsultationPort, apiKeys: string[]): Promise<{ server: Server; base: string }> {
  const app = express();
  app.use('/v1', requireApiKey(apiKeys));
  app.use(createSessionRouter({ consultation: fake, maxTextChars: 100, ownerOf: sessionOwner(apiKeys), retryAfterSeconds: 7 }));
  app.use(errorHandler(createLogger({ level: 'silent' })));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('sessions: HTTP routes (real HTTP, port 0)', () => {
  let server: Server;
  let base: string;
  const fake = new FakeConsultation();
  before(async () => ({ server, base } = await serve(fake, [KEY_1, KEY_2])));
  after(() => new Promise<void>((r) => server.close(() => r())));

  const send = (method: string, path: string, key: string, body?: unknown) =>
    fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const errorOf = async (r: Response) => ((await r.json()) as { error: { code: string; field: string | null; message: string } }).error;

  it('POST /v1/sessions validates and returns 201 with the session', async () => {
    const r = await send('POST', '/v1/sessions', KEY_1, { findings: [{ text: 'cough', code: 'E_1' }], ranker: 'sigma', age: 3, sex: 'F' });
    assert.equal(r.status, 201);
    assert.equal(((await r.json()) as SessionView).sessionId, '1');
    assert.deepEqual(fake.calls.slice(-1), ['start:sigma:1']);
  });
  it('rejects a start without a description, with an unknown field, or an unknown ranker (400)', async () => {
    for (const body of [{}, { text: 'x', extra: 1 }, { text: 'x', ranker: 'magic' }, { text: 'x'.repeat(101) }]) {
      const r = await send('POST', '/v1/sessions', KEY_1, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal((await errorOf(r)).code, 'INPUT');
    }
  });
  it('POST /v1/sessions/:id/answers: 200, 400 for an unknown question or bad answer, 404 for an unknown session', async () => {
    assert.equal((await send('POST', '/v1/sessions/1/answers', KEY_1, { answers: [{ questionId: 'q:E_1', answer: { type: 'yes' } }] })).status, 200);
    const unknownQ = await send('POST', '/v1/sessions/1/answers', KEY_1, { answers: [{ questionId: 'q:E_9', answer: { type: 'yes' } }] });
    assert.equal(unknownQ.status, 400);
    assert.equal((await errorOf(unknownQ)).field, 'answers.0.questionId');
    assert.equal((await send('POST', '/v1/sessions/1/answers', KEY_1, { answers: [{ questionId: 'q:E_1', answer: { type: 'maybe' } }] })).status, 400);
    assert.equal((await send('POST', '/v1/sessions/1/answers', KEY_1, { answers: [] })).status, 400);
    assert.equal((await send('POST', '/v1/sessions/nope/answers', KEY_1, { answers: [{ questionId: 'q:E_1', answer: { type: 'no' } }] })).status, 404);
  });
  it('GET /v1/sessions/:id returns the history to its owner; another key gets the same 404 as an unknown id', async () => {
    const ok = await send('GET', '/v1/sessions/1', KEY_1);
    assert.equal(ok.status, 200);
    assert.deepEqual(((await ok.json()) as SessionHistory).turns, []);
    const foreign = await send('GET', '/v1/sessions/1', KEY_2);
    const unknown = await send('GET', '/v1/sessions/nope', KEY_2);
    assert.equal(foreign.status, 404);
    assert.deepEqual(await errorOf(foreign), await errorOf(unknown));
    assert.equal((await send('POST', '/v1/sessions/1/answers', KEY_2, { answers: [{ questionId: 'q:E_1', answer: { type: 'yes' } }] })).status, 404);
    assert.equal((await send('DELETE', '/v1/sessions/1', KEY_2)).status, 404);
  });
  it('limits: the per-key quota is a 429 with Retry-After (other keys unaffected), the turn cap a 409', async () => {
    assert.equal((await send('POST', '/v1/sessions', KEY_1, { text: 'second' })).status, 201);
    const over = await send('POST', '/v1/sessions', KEY_1, { text: 'third' });
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('retry-after'), '7');
    assert.equal((await errorOf(over)).code, 'SESSION_QUOTA');
    assert.equal((await send('POST', '/v1/sessions', KEY_2, { text: 'other key' })).status, 201);
    const capped = await send('POST', '/v1/sessions/1/answers', KEY_1, { answers: [{ questionId: 'q:E_8', answer: { type: 'yes' } }] });
    assert.equal(capped.status, 409);
    assert.equal((await errorOf(capped)).code, 'SESSION_TURN_LIMIT');
  });
  it('replicas: a lost race or stale version is a 409 SESSION_CONFLICT, a retired build a 410 SESSION_BUILD_RETIRED (no Retry-After)', async () => {
    const raced = await send('POST', '/v1/sessions/1/answers', KEY_1, { version: 1, answers: [{ questionId: 'q:E_1', answer: { type: 'yes' } }] });
    assert.equal(raced.status, 409);
    assert.equal(raced.headers.get('retry-after'), null);
    assert.equal((await errorOf(raced)).code, 'SESSION_CONFLICT');
    const retired = await send('POST', '/v1/sessions/1/answers', KEY_1, { answers: [{ questionId: 'q:E_7', answer: { type: 'yes' } }] });
    assert.equal(retired.status, 410);
    const e = await errorOf(retired);
    assert.equal(e.code, 'SESSION_BUILD_RETIRED');
    assert.match(e.message, /kg-old.*kg-new.*start a new session/);
    const pending = await send('POST', '/v1/sessions/1/answers', KEY_1, { answers: [{ questionId: 'q:E_6', answer: { type: 'yes' } }] });
    assert.equal(pending.status, 503);
    assert.equal(pending.headers.get('retry-after'), '5');
    assert.equal((await errorOf(pending)).code, 'SESSION_BUILD_PENDING');
    assert.equal((await send('POST', '/v1/sessions/1/answers', KEY_1, { version: 0, answers: [{ questionId: 'q:E_1', answer: { type: 'yes' } }] })).status, 400, 'versions start at 1');
  });
  it('DELETE /v1/sessions/:id ends the session (204) and frees a place in the quota', async () => {
    assert.equal((await send('DELETE', '/v1/sessions/1', KEY_1)).status, 204);
    assert.equal((await send('GET', '/v1/sessions/1', KEY_1)).status, 404);
    assert.equal((await send('POST', '/v1/sessions', KEY_1, { text: 'again' })).status, 201);
  });
});

describe('sessions: owners', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as express.Request;
  it('with keys: the key digest (Bearer or x-api-key), never the key itself', () => {
    const ownerOf = sessionOwner([KEY_1, KEY_2]);
    assert.equal(ownerOf(req({ authorization: `Bearer ${KEY_1}` })), ownerOfKey(KEY_1));
    assert.equal(ownerOf(req({ 'x-api-key': KEY_1 })), ownerOfKey(KEY_1));
    assert.notEqual(ownerOfKey(KEY_1), ownerOfKey(KEY_2));
    assert.ok(!ownerOfKey(KEY_1).includes(KEY_1));
  });
  it('without keys (loopback only): one local owner, whatever headers say', () => {
    const ownerOf = sessionOwner([]);
    assert.equal(ownerOf(req({ authorization: `Bearer ${KEY_1}` })), LOCAL_OWNER);
    assert.equal(ownerOf(req({})), LOCAL_OWNER);
  });
});
