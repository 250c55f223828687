import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { createSessionRouter } from '../sessions/routes.js';
import { sessionOwner } from '../sessions/owner.js';
import { DEFAULT_LIMITS } from '../config.js';
import { keyDigest, requireApiKey } from './access.js';
import { admissionControl, FairAdmission } from './admission.js';
import { LoopCostBudget } from './loop-cost.js';
import { errorHandler, notFoundRoute } from './error-handler.js';
import { exploreStyleRoutes } from './explore-style.js';
import { buildOpenApi } from './openapi.js';
import type { AppDeps } from './ports.js';
import { clientBucket } from './rate-limit.js';
import { requestLog } from './request-log.js';
import { dropDemographics, securityLayer } from './security.js';
import { diagnoseRoutes } from './routes/diagnose.js';
import { healthRoutes } from './routes/health.js';
import { kgRoutes } from './routes/kg.js';
import { cdsHooksRoutes } from './routes/cds-hooks.js';

export type { AppDeps } from './ports.js';

const WEB_DIR = fileURLToPath(new URL('../../web', import.meta.url));
// Same-origin only: the page loads nothing from elsewhere and inserts no inline code.
const WEB_CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The express app, built from injected dependencies: no I/O here, so tests can hand it
 * fakes and listen on port 0. `/healthz`, `/readyz` and `/openapi.json` stay open for
 * probes; every `/v1` route needs an API key when keys are configured.
 */
export function bodyLimitBytes(maxTextChars: number): number {
  // Text is UTF-8 (up to 4 bytes a char) plus findings and JSON overhead.
  return Math.max(256 * 1024, maxTextChars * 4 + 128 * 1024);
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestLog(deps.logger));
  app.use(securityLayer({ http: deps.config.http, apiKeys: deps.apiKeys, bodyLimitBytes: bodyLimitBytes(deps.config.http.maxTextChars), logger: deps.logger }));
  app.use((_req, res, next) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    next();
  });

  const openapi = buildOpenApi({ maxTextChars: deps.config.http.maxTextChars, version: deps.version ?? '0.1.0' });
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use(healthRoutes(deps));
  // The copilot page (web/) and the Neo4j Browser style: static files, no patient data.
  app.use(express.static(WEB_DIR, { setHeaders: (res) => res.set('Content-Security-Policy', WEB_CSP) }));
  app.use(exploreStyleRoutes());

  app.use('/v1', requireApiKey(deps.apiKeys));
  app.use(express.json({ limit: bodyLimitBytes(deps.config.http.maxTextChars), strict: true }));
  app.use(dropDemographics(deps.config.privacy));
  // Diagnose work (a diagnose, a session turn) waits for a fair slot (admission.ts).
  const limits = deps.config.limits ?? DEFAULT_LIMITS;
  const hashedKeys = deps.apiKeys.map(keyDigest);
  // With the rate limit off (DXGRAPH_RATE_LIMIT_MAX=0: benchmarks, one trusted caller) every per-client limit is off too; the global bound stays.
  const perClient = (deps.config.http.rateLimit?.max ?? 0) > 0;
  const admission = admissionControl(
    new FairAdmission(perClient ? limits.admission : { ...limits.admission, maxActivePerClient: limits.admission.maxActive, maxQueuedPerClient: limits.admission.maxQueued }),
    (req) => clientBucket(req, hashedKeys),
    { cost: perClient && limits.loopCost.msPerSecond > 0 ? new LoopCostBudget(limits.loopCost) : null },
  );
  app.post(['/v1/sessions', '/v1/sessions/:id/answers'], admission);
  app.use(diagnoseRoutes(deps, admission));
  app.use(kgRoutes(deps));
  // CDS Hooks (docs/cds-hooks.md): the EHR's JWT when configured, else the API key.
  app.use(cdsHooksRoutes(deps, admission));
  if (deps.consultation) app.use(createSessionRouter({ consultation: deps.consultation, maxTextChars: deps.config.http.maxTextChars, ownerOf: sessionOwner(deps.apiKeys) }));

  app.use(notFoundRoute);
  app.use(errorHandler(deps.logger));
  return app;
}
