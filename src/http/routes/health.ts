import { Router } from 'express';
import type { AppDeps } from '../ports.js';

/** Liveness (the process answers) and readiness (Neo4j reachable and indexes loaded). */
export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    // A probe that throws means "not ready", never a 500; the reason goes to the log.
    const checks = await deps.readiness().catch((e: unknown) => {
      deps.logger.warn({ reason: (e as Error)?.message }, 'readiness probe failed');
      return { neo4j: false, indexes: false };
    });
    const ready = checks.neo4j && checks.indexes;
    res.status(ready ? 200 : 503).json({ ready, checks });
  });
  return router;
}
