import { Router, type RequestHandler } from 'express';
import { DEFAULT_LIMITS } from '../../config.js';
import { InputError } from '../../errors.js';
import { diagnoseJson } from '../../query/diagnose-json.js';
import type { AppDeps } from '../ports.js';
import { diagnoseRequestSchema } from '../schemas.js';
import { toDiagnoseInput } from '../to-diagnose-input.js';

/**
 * `POST /v1/diagnose`. `admission` (admission.ts) bounds how many run at once; the answer
 * carries the summary trace unless `options.trace` is "full", and never exceeds
 * `limits.maxResponseBytes` (a full trace above it is sent as the summary, which says so in
 * `trace.omitted`).
 */
export function diagnoseRoutes(deps: AppDeps, admission: RequestHandler): Router {
  const schema = diagnoseRequestSchema(deps.config.http.maxTextChars);
  const maxBytes = (deps.config.limits ?? DEFAULT_LIMITS).maxResponseBytes;
  const router = Router();
  router.post('/v1/diagnose', admission, async (req, res) => {
    // express.json leaves the body undefined for other content types.
    if (req.body === undefined) throw new InputError('body: send a JSON object with Content-Type: application/json', { field: 'body' });
    const body = schema.parse(req.body);
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const input = toDiagnoseInput(body, deps.config.privacy);
    const render = { trace: body.options?.trace ?? 'summary', maxBytes } as const;
    // A worker pool renders the body in the worker (diagnoseJson); on the event loop it is rendered here.
    const json = deps.query.diagnoseJson ? await deps.query.diagnoseJson(input, render, { signal: gone.signal }) : diagnoseJson(await deps.query.diagnose(input, { signal: gone.signal }), render);
    res.type('application/json').send(json);
  });
  return router;
}
