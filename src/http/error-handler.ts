import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { DxError, InputError, NotFoundError, ServiceUnavailableError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ErrorBody } from './schemas.js';
import { routeOf } from './request-log.js';

/**
 * The one place errors become HTTP responses. Expected failures (DxError subclasses,
 * zod validation, body-parser errors) map to 4xx/503 with a message safe to show;
 * anything else is a bug: 500 with a generic message, logged without the request body.
 * A stack trace never reaches the client.
 */
export interface HttpFailure {
  status: number;
  body: ErrorBody;
}

const fail = (status: number, code: string, message: string, field: string | null = null): HttpFailure => ({
  status,
  body: { error: { code, message, field } },
});

const SERVICE_NAMES: Record<string, string> = { neo4j: 'Neo4j', llm: 'The LLM endpoint', postgres: 'PostgreSQL' };

export function toHttpFailure(err: unknown): HttpFailure | null {
  if (err instanceof ZodError) {
    const issue = err.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const path = [...issue.path.map(String), ...keys.slice(0, 1)];
    const field = path.length > 0 ? path.join('.') : null;
    const why = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
    return fail(400, 'INPUT', `${field ?? 'body'}: ${why}`, field);
  }
  if (err instanceof InputError) return fail(400, 'INPUT', err.message, err.field);
  if (err instanceof NotFoundError) return fail(404, 'NOT_FOUND', err.message);
  if (err instanceof ServiceUnavailableError) {
    const who = SERVICE_NAMES[err.service] ?? err.service;
    return fail(503, 'UNAVAILABLE', `${who} is unreachable; the server cannot answer this request now. Retry later.`);
  }
  if (err instanceof DxError) return null;
  return bodyParserFailure(err);
}

/** body-parser (express.json) marks its errors with `type` and a 4xx `status`. */
function bodyParserFailure(err: unknown): HttpFailure | null {
  const e = err as { type?: string; status?: number; limit?: number };
  switch (e?.type) {
    case 'entity.parse.failed':
      return fail(400, 'INPUT', 'body: invalid JSON', 'body');
    case 'entity.too.large':
      return fail(413, 'PAYLOAD_TOO_LARGE', `body: larger than the limit of ${e.limit} bytes`, 'body');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return fail(415, 'UNSUPPORTED_MEDIA_TYPE', 'body: send UTF-8 JSON', 'body');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return fail(400, 'INPUT', 'body: could not be read', 'body');
    default:
      return clientHttpError(err);
  }
}

/**
 * Other 4xx errors raised by express itself (a path parameter that is not valid
 * percent-encoding) or by `send` (a static file that is not there) carry an http-errors
 * `status`: they are the client's, never a 500 (found by the fuzz test, issue 10).
 */
function clientHttpError(err: unknown): HttpFailure | null {
  const e = err as { status?: unknown; statusCode?: unknown };
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : null;
  if (status === null || status < 400 || status > 499) return null;
  if (status === 404) return fail(404, 'NOT_FOUND', 'not found');
  if (err instanceof URIError) return fail(400, 'INPUT', 'path: not valid percent-encoding', 'path');
  return fail(status, 'INPUT', 'request: rejected', null);
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const known = toHttpFailure(err);
    if (known) {
      if (known.status === 503) logger.warn({ route: routeOf(req), reason: (err as Error).message }, 'service unavailable');
      res.status(known.status).json(known.body);
      return;
    }
    // A bug: log what is needed to fix it, never the request body or patient text.
    const e = err as Error;
    logger.error({ method: req.method, route: routeOf(req), err: { type: e?.name, message: e?.message, stack: e?.stack } }, 'unhandled error');
    res.status(500).json(fail(500, 'INTERNAL', 'internal error; it has been logged').body);
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export const notFoundRoute: RequestHandler = (req, res) => {
  // The path is the client's input (it may carry NUL, bidi controls or patient text): not echoed.
  res.status(404).json(fail(404, 'NOT_FOUND', `no route for this method and path (${SAFE_METHODS.has(req.method) ? req.method : 'method'}); see /openapi.json`).body);
};
