import cors from 'cors';
import { Router, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { rateLimiter } from './rate-limit.js';

/**
 * The protective layer in front of every route (issue 10), mounted once right after the
 * request log: security headers (helmet), CORS only for configured origins, bodies larger
 * than the limit refused from their Content-Length before a byte is read, and the
 * per-client rate limit on `/v1` (rate-limit.ts). The API key check and JSON parsing
 * stay where they are in app.ts.
 */
export interface SecurityOptions {
  http: Pick<Config['http'], 'rateLimit' | 'corsOrigins'>;
  apiKeys: readonly string[];
  /** Largest accepted request body (the app's JSON limit). */
  bodyLimitBytes: number;
  logger: Logger;
}

// API responses are JSON, never a document: nothing may load or frame them. The web page
// (express.static in app.ts) replaces this with its own same-origin policy.
const API_CSP = { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] } };

export function securityLayer(opts: SecurityOptions): Router {
  const router = Router();
  router.use(helmet({ contentSecurityPolicy: API_CSP, strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false } }));
  const origins = opts.http.corsOrigins ?? [];
  // No allow-list, no CORS middleware: a browser on another origin gets no CORS header.
  if (origins.length > 0) {
    router.use(
      cors({ origin: [...origins], methods: ['GET', 'POST'], allowedHeaders: ['content-type', 'authorization', 'x-api-key'], maxAge: 600, credentials: false }),
    );
  }
  router.use(refuseLargeBodies(opts.bodyLimitBytes));
  const limiter = rateLimiter({ limit: opts.http.rateLimit, apiKeys: opts.apiKeys, logger: opts.logger });
  // CDS Hooks calls run a diagnose each: limited like /v1.
  if (limiter) router.use(['/v1', '/cds-services'], limiter);
  return router;
}

/**
 * 413 on a declared Content-Length above the limit, whatever the content type (express.json
 * only guards JSON); the connection is closed so the unread body is not drained.
 */
export function refuseLargeBodies(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (!(declared > limitBytes)) return next();
    res
      .status(413)
      .set('Connection', 'close')
      .json({ error: { code: 'PAYLOAD_TOO_LARGE', message: `body: larger than the limit of ${limitBytes} bytes`, field: 'body' } });
  };
}

/**
 * DXGRAPH_DROP_DEMOGRAPHICS at query time: age and sex are removed from every parsed JSON
 * body before any route (diagnose, sessions) sees them, so they are neither used nor
 * kept in session state. Mounted after the JSON parser.
 */
export function dropDemographics(privacy: Config['privacy']): RequestHandler {
  return (req, _res, next) => {
    const body: unknown = req.body;
    if (privacy.dropDemographics && body !== null && typeof body === 'object' && !Array.isArray(body)) {
      delete (body as Record<string, unknown>).age;
      delete (body as Record<string, unknown>).sex;
    }
    next();
  };
}
