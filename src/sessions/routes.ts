/**
 * Express routes of consultation sessions, for the HTTP server to mount:
 *   POST /v1/sessions              first description → session id, differential, questions (201)
 *   POST /v1/sessions/:id/answers  answers by question id → updated differential, questions
 *   GET  /v1/sessions/:id          the whole history
 *   DELETE /v1/sessions/:id        end the session (204), freeing the key's quota
 * Every session belongs to the owner `ownerOf` reads from the request (the API key); another
 * owner's session is a 404 like a missing one. Validation failures throw ZodError /
 * InputError and an unknown, expired or foreign id throws NotFoundError; the server's error
 * handler turns them into 400 / 404. Session limits are answered here: per-key quota 429,
 * server capacity 503 (both with Retry-After), the turn cap 409. Replicas (issue 28): an answer
 * to a session that moved on since it was read (or since the client's `version`) is 409
 * SESSION_CONFLICT; an answer to a session of a KG build no longer served is 410 SESSION_BUILD_RETIRED
 * (503 SESSION_BUILD_PENDING when the session's build is newer than this replica's).
 */
import express, { Router, type ErrorRequestHandler } from 'express';
import type { ConsultationPort } from './consultation.js';
import { SessionBuildError, SessionConflictError, SessionLimitError, type SessionLimit } from './errors.js';
import { LOCAL_OWNER, type OwnerOf } from './owner.js';
import { AnswersRequestSchema, startSessionSchema } from './schemas.js';

export interface SessionRouterDeps {
  consultation: ConsultationPort;
  /** Longest accepted description (config DXGRAPH_MAX_TEXT_CHARS). */
  maxTextChars?: number;
  /** Who owns the request's sessions (`sessionOwner(apiKeys)`); absent = one local owner. */
  ownerOf?: OwnerOf;
  /** Seconds a client is told to wait after a quota or capacity refusal. */
  retryAfterSeconds?: number;
}

const LIMIT_STATUS: Record<SessionLimit, { status: number; code: string }> = {
  'session-quota': { status: 429, code: 'SESSION_QUOTA' },
  'session-capacity': { status: 503, code: 'SESSION_CAPACITY' },
  'session-turns': { status: 409, code: 'SESSION_TURN_LIMIT' },
};

export function createSessionRouter(deps: SessionRouterDeps): Router {
  const maxTextChars = deps.maxTextChars ?? 20000;
  const ownerOf = deps.ownerOf ?? (() => LOCAL_OWNER);
  const startSchema = startSessionSchema(maxTextChars);
  const router = Router();
  // A no-op when the app already parsed the body (body-parser marks parsed requests).
  router.use('/v1/sessions', express.json({ limit: Math.max(256 * 1024, maxTextChars * 4 + 128 * 1024), strict: true }));

  router.post('/v1/sessions', async (req, res) => {
    const body = startSchema.parse(req.body ?? {});
    res.status(201).json(await deps.consultation.start(ownerOf(req), body));
  });
  router.post('/v1/sessions/:id/answers', async (req, res) => {
    const body = AnswersRequestSchema.parse(req.body ?? {});
    res.json(await deps.consultation.answer(ownerOf(req), req.params.id, body));
  });
  router.get('/v1/sessions/:id', async (req, res) => {
    res.json(await deps.consultation.get(ownerOf(req), req.params.id));
  });
  router.delete('/v1/sessions/:id', async (req, res) => {
    await deps.consultation.end(ownerOf(req), req.params.id);
    res.status(204).end();
  });
  router.use(sessionLimitErrors(deps.retryAfterSeconds ?? 60));
  router.use(sessionStateErrors);
  return router;
}

/** SessionLimitError → its status in the server's error body shape; everything else goes on to the app's handler. */
function sessionLimitErrors(retryAfterSeconds: number): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (!(err instanceof SessionLimitError)) return next(err);
    const { status, code } = LIMIT_STATUS[err.limit];
    if (status !== 409) res.set('Retry-After', String(retryAfterSeconds));
    res.status(status).json({ error: { code, message: err.message, field: null } });
  };
}

/**
 * A lost race or a stale client version → 409 (reload and answer again); a retired build → 410
 * (start a new session); a build this replica does not serve yet (rolling restart) → 503 + Retry-After.
 */
const sessionStateErrors: ErrorRequestHandler = (err, _req, res, next) => {
  if (err instanceof SessionConflictError) return void res.status(409).json({ error: { code: 'SESSION_CONFLICT', message: err.message, field: null } });
  if (err instanceof SessionBuildError && err.pending) return void res.status(503).set('Retry-After', '5').json({ error: { code: err.code, message: err.message, field: null } });
  if (err instanceof SessionBuildError) return void res.status(410).json({ error: { code: err.code, message: err.message, field: null } });
  next(err);
};
