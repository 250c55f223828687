import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import { ConfigError } from '../errors.js';
import type { Config } from '../config.js';

/**
 * Basic access control (issue 10 hardens it further): loopback by default, an API key
 * required to bind anywhere else, keys compared in constant time.
 */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

/** Keys from DXGRAPH_API_KEYS (comma-separated) and DXGRAPH_API_KEY_FILE (one per line, # comments). */
export function loadApiKeys(http: Config['http']): string[] {
  const keys = [...http.apiKeys];
  if (http.apiKeyFile) {
    let text: string;
    try {
      text = readFileSync(http.apiKeyFile, 'utf8');
    } catch (e) {
      throw new ConfigError(`DXGRAPH_API_KEY_FILE: cannot read ${http.apiKeyFile}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    keys.push(...text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
  }
  const short = keys.find((k) => k.length < 16);
  if (short !== undefined) throw new ConfigError('DXGRAPH_API_KEYS / DXGRAPH_API_KEY_FILE: every API key must be at least 16 characters');
  // Which key is weak is given by position only: the error line must not print a secret.
  const weak = keys.findIndex((k) => keyEntropyBits(k) < MIN_KEY_ENTROPY_BITS || new Set(k).size < MIN_KEY_DISTINCT_CHARS);
  if (weak >= 0) {
    throw new ConfigError(
      `DXGRAPH_API_KEYS / DXGRAPH_API_KEY_FILE: API key #${weak + 1} is too predictable (needs at least ${MIN_KEY_DISTINCT_CHARS} different characters and about ${MIN_KEY_ENTROPY_BITS} bits by character frequency); generate one with: openssl rand -hex 24`,
    );
  }
  return keys;
}

/**
 * A floor on how guessable a key may be (issue 18: a 16-character key of one repeated
 * letter was accepted). Shannon entropy of the key's own character frequencies times its
 * length: 0 bits for "aaaa…", 16 for "abab…" (16 chars), about 64 for 16 random hex
 * digits, 96+ for `openssl rand -hex 24`. It does not catch every weak key (a dictionary
 * phrase passes), only the degenerate ones; generated keys clear it by far.
 */
export const MIN_KEY_ENTROPY_BITS = 48;
export const MIN_KEY_DISTINCT_CHARS = 8;

export function keyEntropyBits(key: string): number {
  const chars = [...key];
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const n of counts.values()) bitsPerChar -= (n / chars.length) * Math.log2(n / chars.length);
  return bitsPerChar * chars.length;
}

/** Refuse to serve patient data on a non-loopback address without an API key. */
export function assertSafeBinding(host: string, apiKeys: readonly string[]): void {
  if (!isLoopback(host) && apiKeys.length === 0) {
    throw new ConfigError(
      `host ${host} (HOST or --host) is not a loopback address and no API key is configured: set DXGRAPH_API_KEYS or DXGRAPH_API_KEY_FILE, or bind 127.0.0.1`,
    );
  }
}

/**
 * A key's SHA-256, the form keys are held and compared in (keyMatches, the rate limiter's
 * and admission's client buckets). Hashing first makes every comparison the same length,
 * so timingSafeEqual applies and the key's length is not leaked either.
 */
export const keyDigest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function keyMatches(candidate: string, keys: readonly Buffer[]): boolean {
  const c = keyDigest(candidate);
  let found = false;
  for (const k of keys) found = timingSafeEqual(c, k) || found; // no early exit
  return found;
}

/** The key a request presents (Bearer first, then x-api-key), or null; not yet checked. */
export function presentedKey(authorization: string | undefined, xApiKey: string | string[] | undefined): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (bearer) return bearer[1]!;
  if (typeof xApiKey === 'string' && xApiKey.length > 0) return xApiKey;
  return null;
}

/** 401 unless the request carries a configured key; a no-op when no keys are configured. */
export function requireApiKey(apiKeys: readonly string[]): RequestHandler {
  const hashed = apiKeys.map(keyDigest);
  return (req, res, next) => {
    if (hashed.length === 0) return next();
    const key = presentedKey(req.headers.authorization, req.headers['x-api-key']);
    if (key !== null && keyMatches(key, hashed)) return next();
    res
      .status(401)
      .set('WWW-Authenticate', 'Bearer')
      .json({ error: { code: 'UNAUTHORIZED', message: 'missing or wrong API key (Authorization: Bearer <key> or x-api-key)', field: null } });
  };
}
