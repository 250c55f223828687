/**
 * Where an LLM report waits for its reader (issue 48): `/v1/diagnose` answers with the evidence
 * differential at once and a pending report's href; the LLM's answer is stored here when it
 * arrives. In this process's memory (memory-report-store.ts) or, when sessions live in Neo4j,
 * there too (neo4j-report-store.ts), so any replica answers the href. Same rules in both:
 *  - a report belongs to the API key that asked for it: another owner's id reads like a missing one;
 *  - it expires `ttlMs` after it was asked for (DXGRAPH_REPORT_TTL_MS), whatever its status;
 *  - the body is the rendered DiagnoseResult JSON, stored as given (sealed at rest in Neo4j).
 */
export type ReportStatus = 'pending' | 'done' | 'failed';

export interface StoredReport {
  id: string;
  status: ReportStatus;
  /** The LLM's answer as `/v1/diagnose` JSON; null while pending. */
  body: string | null;
  expiresAt: number;
}

export interface ReportStore {
  /** Records a pending report; false when the store holds its maximum of live reports (refused, never evicted). */
  open(id: string, owner: string): Promise<boolean>;
  /** The answer arrived (or failed); a report that expired meanwhile stays gone. */
  settle(id: string, owner: string, status: Exclude<ReportStatus, 'pending'>, body: string): Promise<void>;
  /** The owner's live report, or null for a missing, expired or another owner's id. */
  get(id: string, owner: string): Promise<StoredReport | null>;
  /** Deletes expired reports; returns how many. */
  purgeExpired(): Promise<number>;
}

export interface ReportBounds {
  ttlMs: number;
  /** Live reports (pending or settled) the store keeps at most. */
  maxReports: number;
}
