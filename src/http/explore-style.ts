import { Router } from 'express';
import { fileURLToPath } from 'node:url';

const GRASS_FILE = fileURLToPath(new URL('../../cypher/explore/style.grass', import.meta.url));

/**
 * `GET /explore/style.grass` for Neo4j Browser's `:style <url>` (docs/explore.md). The Browser
 * is another origin and sends custom headers (X-Ajax-Browser-Auth, X-stream), so its fetch is
 * preflighted: answer OPTIONS too. A public static file, no patient data: any origin may read it.
 */
export function exploreStyleRoutes(): Router {
  const router = Router();
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Max-Age': '600' };
  router.options('/explore/style.grass', (req, res) => {
    res.set({ ...cors, 'Access-Control-Allow-Headers': req.get('access-control-request-headers') ?? '' }).status(204).end();
  });
  router.get('/explore/style.grass', (_req, res) => {
    res.type('text/plain').set(cors).sendFile(GRASS_FILE);
  });
  return router;
}
