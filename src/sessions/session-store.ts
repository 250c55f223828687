/**
 * In-memory consultation sessions, each owned by the client that created it (an API key's
 * digest, or the one local owner when no keys are configured). Bounds (issue 18):
 *  - per owner: at most `maxPerOwner` live sessions; a create past it is refused, so one
 *    client can never push another's sessions out;
 *  - overall: at most `maxSessions`; a create past it is refused too (no cross-owner eviction);
 *  - time: a sliding idle TTL and an absolute lifetime from creation, so a polled session
 *    still ends.
 * A session of another owner is reported exactly like a missing one (NotFoundError, HTTP 404):
 * a client cannot even learn that the id exists. The clock and the id maker are injected.
 */
import { randomUUID } from 'node:crypto';
import { InputError, NotFoundError } from '../errors.js';
import { SessionLimitError } from './errors.js';

export interface SessionStoreOptions {
  maxSessions: number;
  maxPerOwner: number;
  ttlMs: number;
  lifetimeMs: number;
  now?: () => number;
  newId?: () => string;
}

export interface StoredSession<T> {
  id: string;
  owner: string;
  createdAt: number;
  /** Last read or write; the session expires at min(touchedAt + ttlMs, createdAt + lifetimeMs). */
  touchedAt: number;
  value: T;
}

export class SessionStore<T> {
  // Map iteration order is insertion order; re-inserting on every touch keeps it in
  // last-use order, so idle-expired sessions are found from the front.
  private readonly sessions = new Map<string, StoredSession<T>>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly opts: SessionStoreOptions) {
    for (const k of ['maxSessions', 'maxPerOwner'] as const) if (!(Number.isInteger(opts[k]) && opts[k] >= 1)) throw new InputError(`${k} must be an integer of at least 1`, { field: k });
    for (const k of ['ttlMs', 'lifetimeMs'] as const) if (!(opts[k] > 0)) throw new InputError(`${k} must be positive`, { field: k });
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? randomUUID;
  }

  get size(): number {
    this.sweepIdle();
    this.sweepAll();
    return this.sessions.size;
  }

  /** Live sessions of one owner. */
  countOf(owner: string): number {
    this.sweepOwner(owner);
    return this.byOwner.get(owner)?.size ?? 0;
  }

  expiresAt(s: StoredSession<T>): number {
    return Math.min(s.touchedAt + this.opts.ttlMs, s.createdAt + this.opts.lifetimeMs);
  }

  /** Throws the SessionLimitError a `create` for this owner would throw now. */
  assertRoom(owner: string): void {
    if (this.countOf(owner) >= this.opts.maxPerOwner) {
      throw new SessionLimitError('session-quota', `session quota reached: at most ${this.opts.maxPerOwner} live sessions per API key; finish or let some expire`);
    }
    this.sweepIdle();
    // Sessions past their absolute lifetime can sit anywhere in last-use order: a full pass only when needed.
    if (this.sessions.size >= this.opts.maxSessions) this.sweepAll();
    if (this.sessions.size >= this.opts.maxSessions) throw new SessionLimitError('session-capacity', `the server holds its maximum of ${this.opts.maxSessions} live sessions; retry later`);
  }

  create(owner: string, value: T): StoredSession<T> {
    this.assertRoom(owner);
    const t = this.now();
    const s: StoredSession<T> = { id: this.newId(), owner, createdAt: t, touchedAt: t, value };
    this.sessions.set(s.id, s);
    let ids = this.byOwner.get(owner);
    if (!ids) this.byOwner.set(owner, (ids = new Set()));
    ids.add(s.id);
    return s;
  }

  /** The owner's live session (refreshing its idle expiry); NotFoundError for missing, expired or another owner's. */
  get(id: string, owner: string): StoredSession<T> {
    const s = this.sessions.get(id);
    if (s && this.expired(s)) this.remove(s);
    if (!s || this.expired(s) || s.owner !== owner) throw new NotFoundError('session not found or expired');
    s.touchedAt = this.now();
    this.sessions.delete(id);
    this.sessions.set(id, s);
    return s;
  }

  delete(id: string, owner: string): boolean {
    const s = this.sessions.get(id);
    if (!s || s.owner !== owner) return false;
    this.remove(s);
    return true;
  }

  private expired(s: StoredSession<T>): boolean {
    return this.now() >= this.expiresAt(s);
  }

  private remove(s: StoredSession<T>): void {
    this.sessions.delete(s.id);
    const ids = this.byOwner.get(s.owner);
    ids?.delete(s.id);
    if (ids?.size === 0) this.byOwner.delete(s.owner);
  }

  /** Drops idle-expired sessions from the least recently used end until a live one is found. */
  private sweepIdle(): void {
    const t = this.now();
    for (const s of this.sessions.values()) {
      if (t < s.touchedAt + this.opts.ttlMs) break;
      this.remove(s);
    }
  }

  private sweepAll(): void {
    for (const s of [...this.sessions.values()]) if (this.expired(s)) this.remove(s);
  }

  private sweepOwner(owner: string): void {
    for (const id of [...(this.byOwner.get(owner) ?? [])]) {
      const s = this.sessions.get(id);
      if (s && this.expired(s)) this.remove(s);
    }
  }
}
