/**
 * Express routes of consultation sessions, for the HTTP server to mount:
 *   POST /v1/sessions              first description → session id, differential, questions (201)
 *   POST /v1/sessions/:id/answers  answers by question id → updated differential, questions
 *   GET  /v1/sessions/:id          the whole history
 * Validation failures throw ZodError / InputError and an unknown or expired id throws
 * NotFoundError; the server's error handler turns them into 400 / 404.
 */
import express, { Router } from 'express';
import type { ConsultationPort } from './consultation.js';
import { AnswersRequestSchema, startSessionSchema } from './schemas.js';

export interface SessionRouterDeps {
  consultation: ConsultationPort;
  /** Longest accepted description (config DXGRAPH_MAX_TEXT_CHARS). */
  maxTextChars?: number;
}

export function createSessionRouter(deps: SessionRouterDeps): Router {
  const maxTextChars = deps.maxTextChars ?? 20000;
  const startSchema = startSessionSchema(maxTextChars);
  const router = Router();
  // A no-op when the app already parsed the body (body-parser marks parsed requests).
  router.use('/v1/sessions', express.json({ limit: Math.max(256 * 1024, maxTextChars * 4 + 128 * 1024), strict: true }));

  router.post('/v1/sessions', async (req, res) => {
    const body = startSchema.parse(req.body ?? {});
    res.status(201).json(await deps.consultation.start(body));
  });
  router.post('/v1/sessions/:id/answers', (req, res) => {
    const body = AnswersRequestSchema.parse(req.body ?? {});
    res.json(deps.consultation.answer(req.params.id, body));
  });
  router.get('/v1/sessions/:id', (req, res) => {
    res.json(deps.consultation.get(req.params.id));
  });
  return router;
}
