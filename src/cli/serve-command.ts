import type { Command } from 'commander';
import { DEFAULT_LIMITS, loadConfig } from '../config.js';
import { InputError } from '../errors.js';
import { stopOnSignals } from '../http/graceful-stop.js';
import { createLogger } from '../logger.js';
import { startServer } from '../server.js';

/**
 * `dxgraph serve [--port] [--host]`: the HTTP server until SIGTERM / SIGINT, then a
 * graceful stop (src/http/listen.ts: no new connections, in-flight and kept-alive requests
 * answered with `Connection: close`, driver closed, exit 0 as soon as they are done).
 */
function port(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n > 65535) throw new InputError(`--port must be an integer 0-65535, got '${v}'`, { field: 'port' });
  return n;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the diagnosis HTTP API (binds 127.0.0.1 unless --host / HOST says otherwise)')
    .option('--port <n>', 'port to listen on (default PORT or 8080; 0 picks a free one)', port)
    .option('--host <addr>', 'address to bind (default HOST or 127.0.0.1; non-loopback needs an API key)')
    .action(async (o: { port?: number; host?: string }) => {
      const config = loadConfig();
      const logger = createLogger({ level: config.logLevel });
      const server = await startServer({ config, logger, ...(o.host ? { host: o.host } : {}), ...(o.port !== undefined ? { port: o.port } : {}) });
      process.stdout.write(`dxgraph serving on ${server.url}\n`);
      const { shutdown } = config.limits ?? DEFAULT_LIMITS;
      // The drain deadline plus time to close the Neo4j driver and flush the log.
      process.exitCode = await stopOnSignals(() => server.close(shutdown), { logger, deadlineMs: shutdown.drainMs + 5000 });
      // Exit explicitly: a stray timer (pino flush, driver) must not keep the process up.
      process.exit(process.exitCode ?? 0);
    });
}
