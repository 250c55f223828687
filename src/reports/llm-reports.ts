/**
 * The LLM's report, asked for in the background (issue 48): `/v1/diagnose` answers at once with
 * the evidence differential and `report: {status: "pending", href}`, and the LLM diagnose runs
 * here afterwards; its whole answer (a DiagnoseResult: reasoner "llm", model, degraded, the
 * report with status "done") is settled in the store for the href to return. When the LLM fails
 * or times out, the stored answer is the evidence differential with `degraded: true` and status
 * "failed". At most `maxRunning` reports run at once per process: past it the answer says at
 * once that no report will come, rather than queueing behind a CPU model for minutes.
 */
import { errorMessage } from '../errors.js';
import type { Logger } from '../logger.js';
import type { DiagnoseInput } from '../query/contracts.js';
import { diagnoseJson, type JsonRender } from '../query/diagnose-json.js';
import type { DiagnoseService } from '../http/ports.js';
import { newReportId } from './report-id.js';
import type { ReportStore } from './report-store.js';

/** What a diagnose answer says of its report: waiting at `href`, or refused at once (href null). */
export type ReportHandle = { status: 'pending'; href: string } | { status: 'failed'; href: null; error: string };

export interface LlmReportsDeps {
  store: ReportStore;
  /** Runs the LLM diagnose (the query service, or the worker pool). */
  query: Pick<DiagnoseService, 'diagnose'>;
  maxRunning: number;
  logger?: Logger;
}

export const reportHref = (id: string): string => `/v1/reports/${id}`;

export class LlmReports {
  private readonly running = new Set<Promise<void>>();
  private readonly stop = new AbortController();

  constructor(private readonly deps: LlmReportsDeps) {}

  /**
   * Opens a report for `owner` and starts the LLM diagnose of `input`. `evidenceJson` is the
   * answer already sent: what the href returns (degraded) if the LLM gives none.
   */
  async start(input: DiagnoseInput, owner: string, evidenceJson: string, render: JsonRender): Promise<ReportHandle> {
    if (this.stop.signal.aborted) return refused('the server is stopping');
    if (this.running.size >= this.deps.maxRunning) return refused(`the LLM is busy with ${this.running.size} report(s) (DXGRAPH_REPORTS_RUNNING); the evidence differential stands`);
    const id = newReportId();
    if (!(await this.deps.store.open(id, owner))) return refused('the servers hold their maximum of live reports (DXGRAPH_REPORTS_MAX); retry later');
    const run = this.run(id, owner, input, evidenceJson, render).finally(() => this.running.delete(run));
    this.running.add(run);
    return { status: 'pending', href: reportHref(id) };
  }

  /** Where the href's answer is read (routes/reports.ts). */
  get store(): ReportStore {
    return this.deps.store;
  }

  /** Reports running in this process (tests, the bench). */
  get size(): number {
    return this.running.size;
  }

  /** Aborts the running reports (their LLM calls stop; each settles as failed) and waits for them. */
  async close(): Promise<void> {
    this.stop.abort();
    await Promise.allSettled([...this.running]);
  }

  private async run(id: string, owner: string, input: DiagnoseInput, evidenceJson: string, render: JsonRender): Promise<void> {
    const href = reportHref(id);
    let body: string;
    let status: 'done' | 'failed';
    try {
      const result = await this.deps.query.diagnose({ ...input, options: { ...input.options, reasoner: 'llm' } }, { signal: this.stop.signal });
      status = result.degraded || result.reasoner !== 'llm' || result.report === null ? 'failed' : 'done';
      const report = status === 'done' ? { status, href, ...result.report } : { status, href, error: 'the LLM gave no valid answer in time: this is the evidence differential' };
      body = withReport(diagnoseJson(result, render), report);
    } catch (e) {
      // The message is a category or an input complaint, never patient text (errors.ts).
      this.deps.logger?.warn({ report: 'llm', err: errorMessage(e) }, 'LLM report failed');
      status = 'failed';
      body = withReport(evidenceJson, { status, href, error: 'the LLM report failed: this is the evidence differential' }, { degraded: true });
    }
    try {
      await this.deps.store.settle(id, owner, status, body);
    } catch (e) {
      this.deps.logger?.warn({ report: 'llm', err: errorMessage(e) }, 'LLM report could not be stored');
    }
  }
}

const refused = (error: string): ReportHandle => ({ status: 'failed', href: null, error });

/** A rendered diagnose answer with its `report` (and any top-level field) replaced. */
export function withReport(json: string, report: object, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...(JSON.parse(json) as object), ...extra, report });
}
