import { DEFAULT_LIMITS, loadConfig } from '../config.js';
import { stopOnSignals } from '../http/graceful-stop.js';
import { createLogger } from '../logger.js';
import { startServer } from '../server.js';

/**
 * What `dxgraph serve` runs (flags and help: serve-command.ts), loaded only when it runs (issue 49):
 * the HTTP server until SIGTERM / SIGINT, then a graceful stop (src/http/listen.ts: no new
 * connections, in-flight and kept-alive requests answered with `Connection: close`, driver
 * closed, exit 0 as soon as they are done).
 */
export async function runServe(o: { port?: number; host?: string }): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel });
  const server = await startServer({ config, logger, ...(o.host ? { host: o.host } : {}), ...(o.port !== undefined ? { port: o.port } : {}) });
  process.stdout.write(`dxgraph serving on ${server.url}\n`);
  const { shutdown } = config.limits ?? DEFAULT_LIMITS;
  // The drain deadline plus time to close the Neo4j driver and flush the log.
  process.exitCode = await stopOnSignals(() => server.close(shutdown), { logger, deadlineMs: shutdown.drainMs + 5000 });
  // Exit explicitly: a stray timer (pino flush, driver) must not keep the process up.
  process.exit(process.exitCode ?? 0);
}
