import { pino, type Logger } from 'pino';

/**
 * Structured JSON logs to stderr (stdout stays free for CLI output).
 * Never pass patient text or request bodies to the logger: log counts, ids and timings.
 */
export function createLogger(opts: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const level = opts.level ?? process.env.DXGRAPH_LOG_LEVEL ?? 'info';
  return pino({ name: opts.name ?? 'dxgraph', level, base: undefined }, (opts.destination ?? pino.destination(2)) as pino.DestinationStream);
}

export type { Logger };
