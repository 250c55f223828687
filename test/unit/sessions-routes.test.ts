import { strict as assert } from 'node:assert';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { InputError, NotFoundError } from '../../src/errors.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { createLogger } from '../../src/logger.js';
import type { ConsultationPort } from '../../src/sessions/consultation.js';
import { createSessionRouter } from '../../src/sessions/routes.js';
import type { AnswersRequest, SessionHistory, SessionView, StartSessionRequest } from '../../src/sessions/schemas.js';

/** A fake consultation recording calls; one known session "s1" with one known question "q:E_1". */
class FakeConsultation implements ConsultationPort {
  calls: string[] = [];
  view(id: string): SessionView {
    return {
      sessionId: id, createdAt: '2025-01-01T00:00:00.000Z', expiresAt: '2025-01-01T00:30:00.000Z', ranker: 'information-gain',
      differential: [{ diseaseId: 'dis:a', disease: 'A', probability: 1 }], questions: [], answered: 0,
      stop: { stop: true, reason: 'confident', topProbability: 1, confidence: 0.9 },
    };
  }
  async start(req: StartSessionRequest): Promise<SessionView> {
    this.calls.push(`start:${req.ranker ?? 'default'}:${req.findings?.length ?? 0}`);
    return this.view('s1');
  }
  answer(id: string, req: AnswersRequest): SessionView {
    if (id !== 's1') throw new NotFoundError('session not found or expired');
    if (req.answers.some((a) => a.questionId !== 'q:E_1')) throw new InputError('unknown question id', { field: 'answers.0.questionId' });
    this.calls.push(`answer:${id}`);
    return this.view(id);
  }
  get(id: string): SessionHistory {
    if (id !== 's1') throw new NotFoundError('session not found or expired');
    return { ...this.view(id), description: { text: null, findings: [], age: null, sex: null }, evidence: [], turns: [] };
  }
}

describe('sessions: HTTP routes (real HTTP, port 0)', () => {
  let server: Server;
  let base: string;
  const fake = new FakeConsultation();
  before(async () => {
    const app = express();
    app.use(createSessionRouter({ consultation: fake, maxTextChars: 100 }));
    app.use(errorHandler(createLogger({ level: 'silent' })));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('POST /v1/sessions validates and returns 201 with the session', async () => {
    const r = await post('/v1/sessions', { findings: [{ text: 'cough', code: 'E_1' }], ranker: 'sigma', age: 3, sex: 'F' });
    assert.equal(r.status, 201);
    assert.equal(((await r.json()) as SessionView).sessionId, 's1');
    assert.deepEqual(fake.calls.slice(-1), ['start:sigma:1']);
  });
  it('rejects a start without a description, with an unknown field, or an unknown ranker (400)', async () => {
    for (const body of [{}, { text: 'x', extra: 1 }, { text: 'x', ranker: 'magic' }, { text: 'x'.repeat(101) }]) {
      const r = await post('/v1/sessions', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'INPUT');
    }
  });
  it('POST /v1/sessions/:id/answers: 200, 400 for an unknown question or bad answer, 404 for an unknown session', async () => {
    assert.equal((await post('/v1/sessions/s1/answers', { answers: [{ questionId: 'q:E_1', answer: { type: 'yes' } }] })).status, 200);
    const unknownQ = await post('/v1/sessions/s1/answers', { answers: [{ questionId: 'q:E_9', answer: { type: 'yes' } }] });
    assert.equal(unknownQ.status, 400);
    assert.equal(((await unknownQ.json()) as { error: { field: string } }).error.field, 'answers.0.questionId');
    assert.equal((await post('/v1/sessions/s1/answers', { answers: [{ questionId: 'q:E_1', answer: { type: 'maybe' } }] })).status, 400);
    assert.equal((await post('/v1/sessions/s1/answers', { answers: [] })).status, 400);
    assert.equal((await post('/v1/sessions/nope/answers', { answers: [{ questionId: 'q:E_1', answer: { type: 'no' } }] })).status, 404);
  });
  it('GET /v1/sessions/:id returns the history, 404 when unknown', async () => {
    const ok = await fetch(`${base}/v1/sessions/s1`);
    assert.equal(ok.status, 200);
    assert.deepEqual(((await ok.json()) as SessionHistory).turns, []);
    assert.equal((await fetch(`${base}/v1/sessions/nope`)).status, 404);
  });
});
