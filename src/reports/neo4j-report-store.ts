/**
 * Reports in Neo4j (DXGRAPH_SESSIONS=neo4j): the replica that ran the LLM settles the report and
 * any replica answers its href. The body is sealed like session content (sealed-content.ts, under
 * DXGRAPH_SESSION_KEY, bound to the report id and owner); the Cypher is in cypher/reports/.
 * `open` creates the schema; nothing happens in the constructor.
 */
import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import { DxError, errorMessage } from '../errors.js';
import type { Logger } from '../logger.js';
import { openContent, sealContent, type SessionKey } from '../sessions/sealed-content.js';
import type { ReportBounds, ReportStatus, ReportStore, StoredReport } from './report-store.js';

export interface Neo4jReportOptions extends ReportBounds {
  graph: Pick<GraphStore, 'read' | 'write' | 'writeAll'>;
  key: SessionKey;
  now?: () => number;
  /** Where a failed background sweep is reported. */
  logger?: Logger;
}

const PURGE_BATCH = 1000;
/** Expired reports are swept at most this often, by whichever request opens one next. */
const PURGE_EVERY_MS = 60_000;

export class Neo4jReportStore implements ReportStore {
  private readonly now: () => number;
  private lastPurge = 0;

  private constructor(private readonly o: Neo4jReportOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Ensures the constraint and index (idempotent: every replica may run it). */
  static async open(o: Neo4jReportOptions): Promise<Neo4jReportStore> {
    await o.graph.writeAll('reports/schema');
    return new Neo4jReportStore(o);
  }

  async open(id: string, owner: string): Promise<boolean> {
    const t = this.now();
    if (t - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = t;
      // Off the request's path: the first answer waits for one write (the open), not two. A failed sweep is retried next minute.
      this.purgeExpired().catch((e: unknown) => {
        this.lastPurge = 0;
        this.o.logger?.warn({ err: errorMessage(e) }, 'expired-report purge failed');
      });
    }
    const [row] = await this.o.graph.write('reports/open', { id, owner, now: t, expiresAt: t + this.o.ttlMs, maxReports: this.o.maxReports });
    return row?.opened === true;
  }

  async settle(id: string, owner: string, status: Exclude<ReportStatus, 'pending'>, body: string): Promise<void> {
    const content = sealContent(this.o.key.bytes(), body, aad(id, owner));
    await this.o.graph.write('reports/settle', { id, owner, status, content, now: this.now() });
  }

  async get(id: string, owner: string): Promise<StoredReport | null> {
    const [row] = await this.o.graph.read('reports/get', { id, owner, now: this.now() });
    if (!row) return null;
    const status = String(row.status) as ReportStatus;
    if (row.content == null) return { id, status, body: null, expiresAt: Number(row.expiresAt) };
    const opened = openContent(this.o.key.bytes(), String(row.content), aad(id, owner));
    if (!opened.ok) throw new DxError('REPORT_SEAL', `report content cannot be read: ${opened.error}`);
    return { id, status, body: opened.value, expiresAt: Number(row.expiresAt) };
  }

  async purgeExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      const [row] = await this.o.graph.write('reports/purge-expired', { now: this.now(), limit: PURGE_BATCH });
      const n = Number(row?.deleted ?? 0);
      total += n;
      if (n < PURGE_BATCH) return total;
    }
  }
}

/** Binds a sealed body to its report and owner: a body copied onto another report fails authentication. */
const aad = (id: string, owner: string): string => `report\n${id}\n${owner}`;
