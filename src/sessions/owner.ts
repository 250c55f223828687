/**
 * Who owns a session: the API key that created it. Only a digest of the key is kept (the
 * key itself never sits in session state or logs). Without configured keys the server is
 * loopback-only (src/http/access.ts) and every request is the one local owner, whatever
 * headers it sends, so a header cannot split or hide sessions there.
 */
import type { Request } from 'express';
import { keyDigest, presentedKey } from '../http/access.js';

export type OwnerOf = (req: Request) => string;

export const LOCAL_OWNER = 'local';

export function ownerOfKey(key: string): string {
  return `key:${keyDigest(key).toString('hex').slice(0, 32)}`;
}

/**
 * The owner of a request. `requireApiKey` runs before the session routes and has already
 * refused requests without a configured key, so with keys configured the presented key is
 * a valid one.
 */
export function sessionOwner(apiKeys: readonly string[]): OwnerOf {
  if (apiKeys.length === 0) return () => LOCAL_OWNER;
  return (req) => {
    const key = presentedKey(req.headers.authorization, req.headers['x-api-key']);
    return key === null ? LOCAL_OWNER : ownerOfKey(key);
  };
}
