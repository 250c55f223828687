import type { ReportBounds, ReportStatus, ReportStore, StoredReport } from './report-store.js';

interface Entry {
  owner: string;
  status: ReportStatus;
  body: string | null;
  expiresAt: number;
}

/** Reports in this process's memory (one server, tests): lost on restart, invisible to other replicas. */
export class MemoryReportStore implements ReportStore {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly bounds: ReportBounds & { now?: () => number }) {
    this.now = bounds.now ?? Date.now;
  }

  async open(id: string, owner: string): Promise<boolean> {
    await this.purgeExpired();
    if (this.entries.size >= this.bounds.maxReports) return false;
    this.entries.set(id, { owner, status: 'pending', body: null, expiresAt: this.now() + this.bounds.ttlMs });
    return true;
  }

  async settle(id: string, owner: string, status: Exclude<ReportStatus, 'pending'>, body: string): Promise<void> {
    const e = this.live(id, owner);
    if (e) Object.assign(e, { status, body });
  }

  async get(id: string, owner: string): Promise<StoredReport | null> {
    const e = this.live(id, owner);
    return e ? { id, status: e.status, body: e.body, expiresAt: e.expiresAt } : null;
  }

  async purgeExpired(): Promise<number> {
    const t = this.now();
    let n = 0;
    for (const [id, e] of this.entries) if (e.expiresAt <= t && this.entries.delete(id)) n++;
    return n;
  }

  private live(id: string, owner: string): Entry | null {
    const e = this.entries.get(id);
    return e && e.owner === owner && e.expiresAt > this.now() ? e : null;
  }
}
