import { Router } from 'express';
import type { AppDeps } from '../ports.js';

/** Liveness (the process answers) and readiness (Neo4j reachable and indexes loaded). */
export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const checks = await deps.readiness().catch(() => ({ neo4j: false, indexes: false }));
    const ready = checks.neo4j && checks.indexes;
    res.status(ready ? 200 : 503).json({ ready, checks });
  });
  return router;
}
