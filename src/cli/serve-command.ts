import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { InputError } from '../errors.js';
import { createLogger } from '../logger.js';
import { startServer } from '../server.js';

/**
 * `dxgraph serve [--port] [--host]`: the HTTP server until SIGTERM / SIGINT, then a
 * graceful stop (no new connections, in-flight requests drained, driver closed, exit 0).
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
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: NodeJS.Signals) => {
          if (stopping) return;
          stopping = true;
          logger.info({ signal }, 'shutting down: draining in-flight requests');
          server.close().then(
            () => {
              logger.info('stopped');
              resolve();
            },
            (e: unknown) => {
              logger.error({ err: { message: (e as Error)?.message } }, 'error while stopping');
              process.exitCode = 1;
              resolve();
            },
          );
        };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      // Exit explicitly: a stray timer (pino flush, driver) must not keep the process up.
      process.exit(process.exitCode ?? 0);
    });
}
