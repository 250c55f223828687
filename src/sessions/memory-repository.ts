/**
 * Sessions in this process's memory (DXGRAPH_SESSIONS=memory): tests and a single server.
 * The bounds, expiry and LRU order are session-store.ts's; this adds the version and build id
 * the repository interface promises. Lost on restart and invisible to other replicas.
 */
import { NotFoundError } from '../errors.js';
import { SessionConflictError } from './errors.js';
import { expiryOf, type SessionBounds, type SessionRecord, type SessionRepository } from './repository.js';
import { SessionStore, type StoredSession } from './session-store.js';

interface Versioned<T> {
  version: number;
  buildId: string | null;
  value: T;
}

export class MemorySessionRepository<T> implements SessionRepository<T> {
  private readonly store: SessionStore<Versioned<T>>;

  constructor(private readonly opts: SessionBounds & { now?: () => number; newId?: () => string }) {
    this.store = new SessionStore<Versioned<T>>(opts);
  }

  /** Live sessions overall (tests). */
  get size(): number {
    return this.store.size;
  }

  async assertRoom(owner: string): Promise<void> {
    this.store.assertRoom(owner);
  }

  async create(owner: string, buildId: string | null, value: T): Promise<SessionRecord<T>> {
    return record(this.store.create(owner, { version: 1, buildId, value }));
  }

  async get(id: string, owner: string): Promise<SessionRecord<T>> {
    return record(this.store.get(id, owner));
  }

  /** In memory a refresh costs nothing: the same as get. */
  peek(id: string, owner: string): Promise<SessionRecord<T>> {
    return this.get(id, owner);
  }

  async save(read: SessionRecord<T>, value: T): Promise<SessionRecord<T>> {
    const s = this.store.get(read.id, read.owner);
    if (s.value.version !== read.version) throw new SessionConflictError('the session changed since it was read: reload it and answer again', s.value.version);
    // A new holder object: a record handed out earlier keeps the value it was read with.
    s.value = { ...s.value, version: s.value.version + 1, value };
    return record(s);
  }

  async delete(id: string, owner: string): Promise<boolean> {
    // An expired session is gone, as in get: ending it is a 404, not a 204.
    try {
      this.store.get(id, owner);
    } catch (e) {
      if (e instanceof NotFoundError) return false;
      throw e;
    }
    return this.store.delete(id, owner);
  }

  expiresAt(s: SessionRecord<T>): number {
    return expiryOf(this.opts, s);
  }
}

function record<T>(s: StoredSession<Versioned<T>>): SessionRecord<T> {
  return { id: s.id, owner: s.owner, createdAt: s.createdAt, touchedAt: s.touchedAt, version: s.value.version, buildId: s.value.buildId, value: s.value.value };
}
