import { performance } from 'node:perf_hooks';

/**
 * Cost-aware rate limiting (issue 18). A request count limit treats a 2 ms and a 400 ms
 * diagnose alike, so one key at the default 10 requests/s could still fill the event loop
 * with heavy (valid) requests. Here each client has a budget of event-loop time, refilled at
 * `msPerSecond` up to `burstMs`; a running request is charged its share of the loop's busy
 * time while it runs (processor-sharing accounting over `eventLoopUtilization`: busy time
 * between two events is split evenly among the requests running then). Time spent waiting
 * on Neo4j or an LLM costs nothing. A client in debt gets 429 with the seconds until its
 * budget is back to zero. The caller (admission.ts) applies it only under contention: a
 * client alone on the server is neither charged nor refused (idle capacity is free).
 */
export interface LoopCostLimits {
  /** Loop milliseconds a client earns per second (300 = at most ~30 % of the loop, sustained). */
  msPerSecond: number;
  /** Most a client can bank (a burst of heavy requests after a quiet period). */
  burstMs: number;
}

export const DEFAULT_LOOP_COST: LoopCostLimits = { msPerSecond: 300, burstMs: 5000 };

interface Account {
  tokens: number;
  at: number;
}

export class LoopCostBudget {
  private readonly accounts = new Map<string, Account>();
  private virtual = 0;
  private lastActive: number;
  private runningCount = 0;
  private lookups = 0;

  constructor(
    readonly limits: LoopCostLimits,
    private readonly clock: { now: () => number; loopActiveMs: () => number } = { now: () => performance.now(), loopActiveMs: () => performance.eventLoopUtilization().active },
  ) {
    this.lastActive = clock.loopActiveMs();
  }

  /** Null when the client may start a request (not in debt), else how long until it may. */
  refusal(client: string): { retryAfterSeconds: number } | null {
    const a = this.account(client);
    if (a.tokens >= 0) return null;
    return { retryAfterSeconds: Math.max(1, Math.ceil(-a.tokens / this.limits.msPerSecond)) };
  }

  /** Start metering one request; the returned function stops it and gives its share of loop time (ms). */
  meter(): () => number {
    this.advance();
    this.runningCount++;
    const v0 = this.virtual;
    let cost: number | null = null;
    return () => {
      if (cost !== null) return 0;
      this.advance();
      this.runningCount--;
      cost = this.virtual - v0;
      return cost;
    };
  }

  charge(client: string, ms: number): void {
    const a = this.account(client);
    a.tokens -= ms;
    // A full account carries no information: drop it (bounded memory across many clients).
    if (a.tokens >= this.limits.burstMs) this.accounts.delete(client);
  }

  balance(client: string): number {
    return this.account(client).tokens;
  }

  private account(client: string): Account {
    const now = this.clock.now();
    if (++this.lookups % 1024 === 0) this.sweep(now);
    let a = this.accounts.get(client);
    if (!a) {
      a = { tokens: this.limits.burstMs, at: now };
      this.accounts.set(client, a);
    }
    a.tokens = Math.min(this.limits.burstMs, a.tokens + ((now - a.at) / 1000) * this.limits.msPerSecond);
    a.at = now;
    return a;
  }

  /** Drop accounts that have refilled to the burst since their last use. */
  private sweep(now: number): void {
    for (const [client, a] of this.accounts) if (a.tokens + ((now - a.at) / 1000) * this.limits.msPerSecond >= this.limits.burstMs) this.accounts.delete(client);
  }

  private advance(): void {
    const active = this.clock.loopActiveMs();
    if (this.runningCount > 0) this.virtual += (active - this.lastActive) / this.runningCount;
    this.lastActive = active;
  }
}
