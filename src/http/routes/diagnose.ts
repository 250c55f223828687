import { Router } from 'express';
import { diagnoseRequestSchema } from '../schemas.js';
import { toDiagnoseInput } from '../to-diagnose-input.js';
import type { AppDeps } from '../ports.js';
import { InputError } from '../../errors.js';

export function diagnoseRoutes(deps: AppDeps): Router {
  const schema = diagnoseRequestSchema(deps.config.http.maxTextChars);
  const router = Router();
  router.post('/v1/diagnose', async (req, res) => {
    // express.json leaves the body undefined for other content types.
    if (req.body === undefined) throw new InputError('body: send a JSON object with Content-Type: application/json', { field: 'body' });
    const body = schema.parse(req.body);
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const result = await deps.query.diagnose(toDiagnoseInput(body, deps.config.privacy), { signal: gone.signal });
    res.json(result);
  });
  return router;
}
