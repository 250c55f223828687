import { Router, type RequestHandler } from 'express';
import { DEFAULT_LIMITS } from '../../config.js';
import { InputError } from '../../errors.js';
import type { DiagnoseInput } from '../../query/contracts.js';
import { diagnoseJson, type JsonRender } from '../../query/diagnose-json.js';
import { withReport } from '../../reports/llm-reports.js';
import { sessionOwner } from '../../sessions/owner.js';
import type { AppDeps } from '../ports.js';
import { diagnoseRequestSchema } from '../schemas.js';
import { toDiagnoseInput } from '../to-diagnose-input.js';
import { reportRoutes } from './reports.js';

/**
 * `POST /v1/diagnose`. `admission` (admission.ts) bounds how many run at once; the answer
 * carries the summary trace unless `options.trace` is "full", and never exceeds
 * `limits.maxResponseBytes` (a full trace above it is sent as the summary, which says so in
 * `trace.omitted`). With an LLM configured (`deps.reports`), a request the LLM would answer
 * ("llm", or "auto") gets the evidence differential at once and `report: {status: "pending",
 * href}`: the LLM's answer is fetched at the href (routes/reports.ts), so the differential
 * never waits on the model.
 */
export function diagnoseRoutes(deps: AppDeps, admission: RequestHandler): Router {
  const schema = diagnoseRequestSchema(deps.config.http.maxTextChars);
  const maxBytes = (deps.config.limits ?? DEFAULT_LIMITS).maxResponseBytes;
  const ownerOf = sessionOwner(deps.apiKeys);
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
    const reports = deps.reports;
    if (!reports || input.options.reasoner === 'evidence') {
      res.type('application/json').send(await answer(deps, input, render, gone.signal));
      return;
    }
    // The answer sent now reads the text with the rule path: an LLM decomposer would make it wait on the model, and the report
    // decomposes with the LLM anyway (once, not twice).
    const evidence = await answer(deps, { ...input, options: { ...input.options, reasoner: 'evidence', decomposition: 'rules' } }, render, gone.signal);
    // A client that went away holds no href: no report is started for it (its LLM calls would outlive the request).
    if (gone.signal.aborted) return;
    const report = await reports.start(input, ownerOf(req), evidence, render);
    res.type('application/json').send(withReport(evidence, report));
  });
  if (deps.reports) router.use(reportRoutes(deps.reports.store, ownerOf));
  return router;
}

/** A worker pool renders the body in the worker (diagnoseJson); on the event loop it is rendered here. */
async function answer(deps: AppDeps, input: DiagnoseInput, render: JsonRender, signal: AbortSignal): Promise<string> {
  return deps.query.diagnoseJson ? deps.query.diagnoseJson(input, render, { signal }) : diagnoseJson(await deps.query.diagnose(input, { signal }), render);
}
