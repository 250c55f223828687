/**
 * Sessions in Neo4j (DXGRAPH_SESSIONS=neo4j), shared by every replica on the same database:
 * any replica continues any session, and a restart loses none. Same rules as the memory store
 * (repository.ts); the Cypher is in cypher/sessions/. What Neo4j Browser shows of a session is
 * its id, the owner's key digest, its build id, times and version: the content (description,
 * answers, differentials) is sealed with AES-256-GCM (sealed-content.ts) under a key only the
 * servers hold. `open` creates the schema; nothing happens in the constructor.
 */
import { randomUUID } from 'node:crypto';
import type { GraphStore, Row } from '../adapters/neo4j/graph-store.js';
import { DxError, NotFoundError } from '../errors.js';
import { SessionConflictError, SessionLimitError } from './errors.js';
import { expiryOf, type SessionBounds, type SessionRecord, type SessionRepository } from './repository.js';
import { openContent, sealContent, type SessionKey } from './sealed-content.js';

export interface SessionCodec<T> {
  encode(value: T): string;
  decode(text: string): T;
}

export interface Neo4jSessionOptions<T> extends SessionBounds {
  graph: Pick<GraphStore, 'read' | 'write' | 'writeAll' | 'once'>;
  key: SessionKey;
  codec: SessionCodec<T>;
  now?: () => number;
  newId?: () => string;
}

const GONE = 'session not found or expired';
const PURGE_BATCH = 1000;

export class Neo4jSessionRepository<T> implements SessionRepository<T> {
  private readonly now: () => number;
  private readonly newId: () => string;

  private constructor(private readonly o: Neo4jSessionOptions<T>) {
    this.now = o.now ?? Date.now;
    this.newId = o.newId ?? randomUUID;
  }

  /** Ensures the constraint and indexes (idempotent, so every replica may run it), then the store is usable. */
  static async open<T>(o: Neo4jSessionOptions<T>): Promise<Neo4jSessionRepository<T>> {
    await o.graph.writeAll('sessions/schema');
    return new Neo4jSessionRepository(o);
  }

  async assertRoom(owner: string): Promise<void> {
    const [row] = await this.o.graph.read('sessions/room', { owner, now: this.now() });
    this.refuseIfFull(row);
  }

  async create(owner: string, buildId: string | null, value: T): Promise<SessionRecord<T>> {
    await this.purgeExpired();
    const t = this.now();
    const id = this.newId();
    const content = sealContent(this.o.key.bytes(), this.o.codec.encode(value), aad(id, owner));
    const params = { id, owner, buildId, now: t, expiresAt: expiryOf(this.o, { createdAt: t, touchedAt: t }), content, maxPerOwner: this.o.maxPerOwner, maxSessions: this.o.maxSessions };
    const [row] = await this.o.graph.write('sessions/create', params);
    this.refuseIfFull(row);
    return { id, owner, buildId, createdAt: t, touchedAt: t, version: 1, value };
  }

  async get(id: string, owner: string): Promise<SessionRecord<T>> {
    const t = this.now();
    const [row] = await this.o.graph.write('sessions/get', { id, owner, now: t, ttlMs: this.o.ttlMs, lifetimeMs: this.o.lifetimeMs });
    return this.opened(id, owner, row);
  }

  async peek(id: string, owner: string): Promise<SessionRecord<T>> {
    // An answer turn's read: one auto-commit round trip (graph-store.ts `once`); the save checks the version it read.
    const [row] = await this.o.graph.once('sessions/peek', { id, owner, now: this.now() }, 'READ');
    return this.opened(id, owner, row);
  }

  private opened(id: string, owner: string, row: Row | undefined): SessionRecord<T> {
    if (!row) throw new NotFoundError(GONE);
    const opened = openContent(this.o.key.bytes(), String(row.content), aad(id, owner));
    if (!opened.ok) throw new DxError('SESSION_SEAL', `session content cannot be read: ${opened.error}`);
    return { id, owner, buildId: row.buildId == null ? null : String(row.buildId), createdAt: Number(row.createdAt), touchedAt: Number(row.touchedAt), version: Number(row.version), value: this.o.codec.decode(opened.value) };
  }

  async save(read: SessionRecord<T>, value: T): Promise<SessionRecord<T>> {
    const t = this.now();
    const content = sealContent(this.o.key.bytes(), this.o.codec.encode(value), aad(read.id, read.owner));
    const params = { id: read.id, owner: read.owner, version: read.version, content, now: t, ttlMs: this.o.ttlMs, lifetimeMs: this.o.lifetimeMs };
    // One statement, one auto-commit round trip: the version check and the write are that statement (save.cypher).
    const [row] = await this.o.graph.once('sessions/save', params, 'WRITE');
    if (!row) throw new NotFoundError(GONE);
    if (row.fresh !== true) throw new SessionConflictError('the session changed since it was read (another request recorded a turn first): reload it and answer again', Number(row.was));
    return { ...read, touchedAt: t, version: read.version + 1, value };
  }

  async delete(id: string, owner: string): Promise<boolean> {
    const [row] = await this.o.graph.write('sessions/delete', { id, owner, now: this.now() });
    return Number(row?.deleted ?? 0) > 0;
  }

  expiresAt(s: SessionRecord<T>): number {
    return expiryOf(this.o, s);
  }

  /** Deletes every expired session (content and all); returns how many. Called on each create and by the server's sweep timer. */
  async purgeExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      const [row] = await this.o.graph.write('sessions/purge-expired', { now: this.now(), limit: PURGE_BATCH });
      const n = Number(row?.deleted ?? 0);
      total += n;
      if (n < PURGE_BATCH) return total;
    }
  }

  private refuseIfFull(row: Row | undefined): void {
    const mine = Number(row?.mine ?? 0);
    const total = Number(row?.total ?? 0);
    if (mine >= this.o.maxPerOwner) throw new SessionLimitError('session-quota', `session quota reached: at most ${this.o.maxPerOwner} live sessions per API key; finish or let some expire`);
    if (total >= this.o.maxSessions) throw new SessionLimitError('session-capacity', `the servers hold their maximum of ${this.o.maxSessions} live sessions; retry later`);
  }
}

/** Binds sealed content to its session and owner (sealed-content.ts). */
const aad = (id: string, owner: string): string => `${id}\n${owner}`;
