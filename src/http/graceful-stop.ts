import type { Logger } from '../logger.js';

/**
 * Waits for SIGTERM or SIGINT, then runs `stop` (the server's graceful close) once. A second
 * signal is ignored; if `stop` has not finished by `deadlineMs` the process exits 1 anyway
 * (a stuck driver or socket must not keep a stopping server up). Resolves with the exit
 * code; the caller exits (dxgraph serve, and the shutdown test's child process).
 */
export function stopOnSignals(stop: () => Promise<void>, opts: { logger: Logger; deadlineMs: number }): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      opts.logger.info({ signal }, 'shutting down: no new connections, draining in-flight requests');
      const deadline = setTimeout(() => {
        opts.logger.error({ deadlineMs: opts.deadlineMs }, 'shutdown deadline passed; exiting');
        resolve(1);
      }, opts.deadlineMs);
      deadline.unref();
      stop().then(
        () => {
          clearTimeout(deadline);
          opts.logger.info('stopped');
          resolve(0);
        },
        (e: unknown) => {
          clearTimeout(deadline);
          opts.logger.error({ err: { message: (e as Error)?.message } }, 'error while stopping');
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  });
}
