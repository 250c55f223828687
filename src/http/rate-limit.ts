import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { keyDigest, keyMatches, presentedKey } from './access.js';

/**
 * Per-client request budget on `/v1` (express-rate-limit, in-memory store: one process).
 * A client is its API key when it presents a configured one, else its IP address. The
 * limiter runs before the key check on purpose: a client guessing keys spends its IP's
 * budget, and inventing new wrong keys does not buy a fresh one.
 */
export interface RateLimitOptions {
  limit: Config['http']['rateLimit'];
  apiKeys: readonly string[];
  logger: Logger;
}

/** The bucket a request counts against: `key:<hash prefix>` or `ip:<address or IPv6 /56>`. */
export function clientBucket(req: { headers: Record<string, string | string[] | undefined>; ip?: string | undefined }, hashedKeys: readonly Buffer[]): string {
  const auth = req.headers.authorization;
  const key = presentedKey(typeof auth === 'string' ? auth : undefined, req.headers['x-api-key']);
  // Only a configured key names a bucket; the hash (never the key) is what the store holds.
  if (key !== null && hashedKeys.length > 0 && keyMatches(key, hashedKeys)) return `key:${keyDigest(key).toString('hex').slice(0, 16)}`;
  return `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`;
}

export function rateLimiter(opts: RateLimitOptions): RequestHandler | null {
  const l = opts.limit;
  if (!l || l.max === 0) return null;
  const hashed = opts.apiKeys.map(keyDigest);
  const seconds = Math.round(l.windowMs / 1000);
  return rateLimit({
    windowMs: l.windowMs,
    limit: l.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (req) => clientBucket(req, hashed),
    // The library's own warnings go through pino like everything else (no request data in them).
    logger: {
      error: (e, m) => opts.logger.error({ err: { message: (e as Error)?.message } }, m ?? 'rate limiter error'),
      warn: (e, m) => opts.logger.warn({ err: { message: (e as Error)?.message } }, m ?? 'rate limiter warning'),
    },
    handler: (_req, res) => {
      res.status(429).json({
        error: { code: 'RATE_LIMITED', message: `more than ${l.max} requests in ${seconds} s from this client; retry after the Retry-After header's seconds`, field: null },
      });
    },
  });
}
