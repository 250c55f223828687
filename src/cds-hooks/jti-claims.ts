import { createHash, randomUUID } from 'node:crypto';
import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import { ReplayGuard } from './replay-guard.js';

/**
 * Where the `jti` of accepted CDS client JWTs is remembered until their `exp` (the spec's nonce):
 * a token presented again is a replay. In memory for one process (ReplayGuard); in Neo4j when
 * replicas share it (DXGRAPH_SESSIONS=neo4j, docs/deployment.md), so a token replayed to another
 * replica is refused too. Keys are SHA-256 digests of issuer and jti, never the token.
 */
export interface JtiClaims {
  /** True the first time (iss, jti) is presented before its exp, on any replica sharing the store. */
  claim(iss: string, jti: string, expS: number, nowS: number): Promise<boolean>;
}

export function memoryJtiClaims(maxEntries?: number): JtiClaims {
  const guard = new ReplayGuard(maxEntries);
  return { claim: async (iss, jti, expS, nowS) => guard.accept(iss, jti, expS, nowS) };
}

/** Expired claims are deleted at most once a minute, a batch at a time, by whichever replica claims next. */
const PURGE_EVERY_S = 60;
const PURGE_BATCH = 10_000;

export function neo4jJtiClaims(graph: Pick<GraphStore, 'write'>): JtiClaims {
  let lastPurgeS = 0;
  return {
    async claim(iss, jti, expS, nowS) {
      if (nowS - lastPurgeS >= PURGE_EVERY_S) {
        lastPurgeS = nowS;
        await graph.write('sessions/purge-jti', { now: nowS, limit: PURGE_BATCH });
      }
      const key = createHash('sha256').update(`${iss}\u0000${jti}`).digest('hex');
      const rows = await graph.write('sessions/claim-jti', { key, exp: expS, now: nowS, nonce: randomUUID() });
      return rows[0]?.claimed === true;
    },
  };
}
