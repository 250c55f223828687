import { Router, type RequestHandler } from 'express';
import { DEFAULT_LIMITS } from '../../config.js';
import { InputError } from '../../errors.js';
import type { DiagnoseResult } from '../../query/contracts.js';
import { compactTrace } from '../compact-trace.js';
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
    const result = await deps.query.diagnose(toDiagnoseInput(body, deps.config.privacy), { signal: gone.signal });
    res.type('application/json').send(boundedJson(result, body.options?.trace ?? 'summary', maxBytes));
  });
  return router;
}

export function boundedJson(result: DiagnoseResult, mode: 'summary' | 'full', maxBytes: number): string {
  if (mode === 'full') {
    const full = JSON.stringify(result);
    if (Buffer.byteLength(full) <= maxBytes) return full;
  }
  return JSON.stringify(compactTrace(result));
}
