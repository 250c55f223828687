/**
 * Where consultation sessions live, behind one async interface so a single process can keep
 * them in memory (memory-repository.ts: tests, one server) and replicas can share them in
 * Neo4j (neo4j-repository.ts). Both honour the same rules (issue 18, issue 28):
 *  - a session belongs to its owner; another owner's id reads exactly like a missing one;
 *  - per-owner quota and overall capacity refuse a create, never evict;
 *  - a sliding idle TTL and an absolute lifetime: an expired session is unreadable (and purged);
 *  - every write names the version it read: a stale one is refused (SessionConflictError), so
 *    two replicas answering the same turn at once cannot lose or interleave a turn.
 * Values are replaced, never mutated in place: `save` takes the new value.
 */
import type { StoredSession } from './session-store.js';

export interface SessionRecord<T> extends StoredSession<T> {
  /** 1 at creation, +1 per save: the optimistic check's token. */
  version: number;
  /** The KG build the session started on (null when the KG records none: test snapshots). */
  buildId: string | null;
}

export interface SessionRepository<T> {
  /** Throws the SessionLimitError a `create` for this owner would throw now (refuse before expensive work). */
  assertRoom(owner: string): Promise<void>;
  create(owner: string, buildId: string | null, value: T): Promise<SessionRecord<T>>;
  /** The owner's live session, its idle expiry refreshed; NotFoundError for missing, expired or another owner's. */
  get(id: string, owner: string): Promise<SessionRecord<T>>;
  /** Like `get` without refreshing the expiry: for an answer turn, whose `save` refreshes it (one Neo4j write per turn, not two). */
  peek(id: string, owner: string): Promise<SessionRecord<T>>;
  /** Replaces the value if the session is still at `read.version` (SessionConflictError otherwise); NotFoundError if it is gone. */
  save(read: SessionRecord<T>, value: T): Promise<SessionRecord<T>>;
  /** False when there was no such live session of this owner. */
  delete(id: string, owner: string): Promise<boolean>;
  expiresAt(s: SessionRecord<T>): number;
}

/** The limits both stores enforce (DXGRAPH_SESSION_*). */
export interface SessionBounds {
  maxSessions: number;
  maxPerOwner: number;
  ttlMs: number;
  lifetimeMs: number;
}

export function expiryOf(b: Pick<SessionBounds, 'ttlMs' | 'lifetimeMs'>, s: { createdAt: number; touchedAt: number }): number {
  return Math.min(s.touchedAt + b.ttlMs, s.createdAt + b.lifetimeMs);
}
