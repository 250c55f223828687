import type { Request, RequestHandler } from 'express';
import type { Logger } from '../logger.js';

/**
 * One log line per request: method, route pattern, status, duration. Never the body,
 * query string or URL (a path may carry ids), so patient text cannot reach the logs.
 */
export function routeOf(req: Request): string {
  const pattern = (req.route as { path?: string } | undefined)?.path;
  return pattern ? `${req.baseUrl}${pattern}` : '(unmatched)';
}

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - start) / 1e6;
      logger.info({ method: req.method, route: routeOf(req), status: res.statusCode, durationMs: Math.round(durationMs * 10) / 10 }, 'request');
    });
    next();
  };
}
