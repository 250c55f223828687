/**
 * In-memory consultation sessions: bounded in number (least recently used evicted
 * first) and expiring after `ttlMs` without use (sliding). The clock and the id maker
 * are injected so tests can move time. An unknown or expired id is a NotFoundError
 * (HTTP 404).
 */
import { randomUUID } from 'node:crypto';
import { InputError, NotFoundError } from '../errors.js';

export interface SessionStoreOptions {
  maxSessions: number;
  ttlMs: number;
  now?: () => number;
  newId?: () => string;
}

export interface StoredSession<T> {
  id: string;
  createdAt: number;
  /** Last read or write; the session expires at `touchedAt + ttlMs`. */
  touchedAt: number;
  value: T;
}

export class SessionStore<T> {
  // Map iteration order is insertion order; re-inserting on every touch keeps it LRU order,
  // and with a sliding TTL the least recently used entry is also the first to expire.
  private readonly sessions = new Map<string, StoredSession<T>>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly opts: SessionStoreOptions) {
    if (!(opts.maxSessions >= 1)) throw new InputError('maxSessions must be at least 1', { field: 'maxSessions' });
    if (!(opts.ttlMs > 0)) throw new InputError('ttlMs must be positive', { field: 'ttlMs' });
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? randomUUID;
  }

  get size(): number {
    this.sweep();
    return this.sessions.size;
  }

  expiresAt(s: StoredSession<T>): number {
    return s.touchedAt + this.opts.ttlMs;
  }

  create(value: T): StoredSession<T> {
    this.sweep();
    while (this.sessions.size >= this.opts.maxSessions) {
      const oldest = this.sessions.keys().next().value as string;
      this.sessions.delete(oldest);
    }
    const t = this.now();
    const s: StoredSession<T> = { id: this.newId(), createdAt: t, touchedAt: t, value };
    this.sessions.set(s.id, s);
    return s;
  }

  /** The live session (refreshing its expiry and LRU position); NotFoundError otherwise. */
  get(id: string): StoredSession<T> {
    this.sweep();
    const s = this.sessions.get(id);
    if (!s) throw new NotFoundError(`session ${JSON.stringify(id.slice(0, 64))} not found or expired`);
    s.touchedAt = this.now();
    this.sessions.delete(id);
    this.sessions.set(id, s);
    return s;
  }

  update(id: string, value: T): StoredSession<T> {
    const s = this.get(id);
    s.value = value;
    return s;
  }

  delete(id: string): boolean {
    return this.sessions.delete(id);
  }

  /** Drops expired sessions from the LRU end until a live one is found. */
  private sweep(): void {
    const t = this.now();
    for (const [id, s] of this.sessions) {
      if (t < this.expiresAt(s)) break;
      this.sessions.delete(id);
    }
  }
}
