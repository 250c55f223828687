import { err, ok, type Result } from '../../result.js';

/**
 * One LLM budget per request (issue 18): a wall-time deadline and a call count shared by
 * every LLM stage of the request (knowledge filter, reasoner, gate diagnoser), plus the
 * client's abort signal. Without it each stage had its own full timeout per call: FIND's
 * filter made one call per retrieved record, so topK 100 with a hung endpoint held the
 * request for topK × timeout / concurrency. A stage that finds the budget spent gets a
 * failure value and degrades (keeps the record, falls back to the evidence reasoner).
 */
export interface LlmBudgetLimits {
  /** Wall time from the budget's creation until every LLM call of the request must be done. */
  wallMs: number;
  /** Model calls (repair attempts included) the request may make in total. */
  maxCalls: number;
}

export const DEFAULT_LLM_BUDGET: LlmBudgetLimits = { wallMs: 45_000, maxCalls: 16 };

export type BudgetRefusal = 'aborted' | 'time' | 'calls';

export interface LlmBudgetOptions {
  /** The caller's signal (HTTP client gone): aborts every outstanding call. */
  signal?: AbortSignal | null;
  now?: () => number;
  /** A slice charges its calls to the parent as well. */
  parent?: LlmBudget | null;
}

export class LlmBudget {
  /** Aborts when the caller gives up or the wall time is over. */
  readonly signal: AbortSignal;
  private readonly deadline: number;
  private readonly now: () => number;
  private used = 0;

  constructor(
    readonly limits: LlmBudgetLimits,
    private readonly opts: LlmBudgetOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.deadline = this.now() + Math.max(0, limits.wallMs);
    const timeout = AbortSignal.timeout(Math.max(1, limits.wallMs));
    const outer = [opts.signal, opts.parent?.signal].filter((s): s is AbortSignal => s !== undefined && s !== null);
    this.signal = AbortSignal.any([timeout, ...outer]);
  }

  get callsUsed(): number {
    return this.used;
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  /** Why no further call may start, or null when one may. */
  refusal(): BudgetRefusal | null {
    if (this.opts.signal?.aborted) return 'aborted';
    if (this.remainingMs() <= 0 || this.signal.aborted) return this.opts.parent?.refusal() ?? 'time';
    if (this.used >= this.limits.maxCalls) return 'calls';
    return this.opts.parent?.refusal() ?? null;
  }

  /** Claim one model call; the time left (for the call's own timeout) or why not. */
  claim(): Result<{ remainingMs: number }, BudgetRefusal> {
    const no = this.refusal();
    if (no) return err(no);
    if (this.opts.parent) {
      const p = this.opts.parent.claim();
      if (!p.ok) return p;
    }
    this.used++;
    const parentLeft = this.opts.parent?.remainingMs() ?? Infinity;
    return ok({ remainingMs: Math.min(this.remainingMs(), parentLeft) });
  }

  /**
   * A sub-budget for one stage that leaves room for later ones: at most `share` of the
   * time left and `maxCalls` calls, charged to this budget too. The knowledge filter runs
   * on a slice so the reasoner still has time and calls when the filter's LLM hangs.
   */
  slice(opts: { share: number; maxCalls: number }): LlmBudget {
    const wallMs = Math.floor(this.remainingMs() * Math.min(1, Math.max(0, opts.share)));
    return new LlmBudget({ wallMs, maxCalls: Math.max(0, opts.maxCalls) }, { parent: this, now: this.now });
  }
}
