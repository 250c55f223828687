import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import { requestClient } from '../query/request-client.js';
import type { LoopCostBudget } from './loop-cost.js';

/**
 * Bounded, fair admission for diagnose work (issue 18). The pipeline runs on the one event
 * loop; without a bound, a client sending heavy requests as fast as the rate limit allows
 * had every one of them in progress at once, and another client's request waited behind all
 * of them (p50 14 ms → 5 s). Here at most `maxActive` requests run, at most
 * `maxActivePerClient` of them for one client; the rest wait in one queue per client. A free
 * slot goes to the waiting client with the fewest running, then the one served longest ago,
 * so another client's request waits for the requests already running, not for everything a
 * hostile client queued. Past `maxQueued` (or a client's `maxQueuedPerClient`) the answer is
 * 503 with Retry-After: shedding load is cheaper than holding sockets and memory for
 * requests that would time out anyway.
 */
export interface AdmissionLimits {
  maxActive: number;
  maxActivePerClient: number;
  maxQueued: number;
  maxQueuedPerClient: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { maxActive: 4, maxActivePerClient: 2, maxQueued: 64, maxQueuedPerClient: 16 };

export type Refusal = 'queue full' | 'client queue full';

export interface Slot {
  ok: true;
  /** Resolves when the request may run (at once when a slot is free). */
  admitted: Promise<void>;
  /** Call exactly once when the request is done or gave up (waiting or running). */
  leave: () => void;
}

interface Waiter {
  client: string;
  admit: () => void;
}

export class FairAdmission {
  private active = 0;
  private queued = 0;
  private readonly running = new Map<string, number>();
  /** Admission sequence of each client's latest start (never served = first in line). */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  /** Waiting requests per client, oldest first. */
  private readonly queues = new Map<string, Waiter[]>();
  /** When each client last entered or left (for `contended`). */
  private readonly seen = new Map<string, number>();

  constructor(
    readonly limits: AdmissionLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Does another client compete for the loop: running, waiting, or seen within `windowMs`?
   * The cost budget only bites then: a client alone on the server may use all of it.
   */
  contended(client: string, windowMs = 2000): boolean {
    for (const c of this.running.keys()) if (c !== client) return true;
    for (const c of this.queues.keys()) if (c !== client) return true;
    const t = this.now();
    let other = false;
    for (const [c, at] of this.seen) {
      if (t - at > windowMs) this.seen.delete(c);
      else if (c !== client) other = true;
    }
    return other;
  }

  get stats(): { active: number; queued: number } {
    return { active: this.active, queued: this.queued };
  }

  enter(client: string): Slot | { ok: false; refusal: Refusal } {
    this.seen.set(client, this.now());
    const own = this.queues.get(client) ?? [];
    if (own.length >= this.limits.maxQueuedPerClient && !this.canStart(client)) return { ok: false, refusal: 'client queue full' };
    if (this.queued >= this.limits.maxQueued && !this.canStart(client)) return { ok: false, refusal: 'queue full' };
    let admit!: () => void;
    const admitted = new Promise<void>((resolve) => (admit = resolve));
    let state: 'waiting' | 'running' | 'gone' = 'waiting';
    const waiter: Waiter = {
      client,
      admit: () => {
        state = 'running';
        admit();
      },
    };
    own.push(waiter);
    this.queues.set(client, own);
    this.queued++;
    this.next();
    const leave = () => {
      if (state === 'running') {
        this.active--;
        const n = (this.running.get(client) ?? 1) - 1;
        if (n > 0) this.running.set(client, n);
        else this.running.delete(client);
      } else if (state === 'waiting') {
        const list = this.queues.get(client);
        const i = list?.indexOf(waiter) ?? -1;
        if (list && i >= 0) {
          list.splice(i, 1);
          this.queued--;
          if (list.length === 0) this.queues.delete(client);
        }
      }
      state = 'gone';
      this.seen.set(client, this.now());
      this.next();
      // Forget an idle client (bounded memory); its next request counts as never served.
      if (!this.running.has(client) && !this.queues.has(client)) this.lastServed.delete(client);
    };
    return { ok: true, admitted, leave };
  }

  private canStart(client: string): boolean {
    return this.active < this.limits.maxActive && (this.running.get(client) ?? 0) < this.limits.maxActivePerClient;
  }

  private before(a: string, b: string): boolean {
    const ra = this.running.get(a) ?? 0;
    const rb = this.running.get(b) ?? 0;
    if (ra !== rb) return ra < rb;
    return (this.lastServed.get(a) ?? -1) < (this.lastServed.get(b) ?? -1);
  }

  private next(): void {
    while (this.active < this.limits.maxActive && this.queued > 0) {
      let pick: string | null = null;
      for (const c of this.queues.keys()) if (this.canStart(c) && (pick === null || this.before(c, pick))) pick = c;
      if (pick === null) return; // every waiting client is at its own cap
      const list = this.queues.get(pick)!;
      const waiter = list.shift()!;
      this.queued--;
      if (list.length === 0) this.queues.delete(pick);
      this.active++;
      this.running.set(pick, (this.running.get(pick) ?? 0) + 1);
      this.lastServed.set(pick, ++this.served);
      waiter.admit();
    }
  }
}

/**
 * Express middleware around one FairAdmission and, when given, a per-client event-loop time
 * budget (loop-cost.ts): while other clients compete, a client over its budget gets 429
 * before it is queued and admitted requests are charged their share of the loop. The slot is left when the
 * response is finished or the client goes away (a request abandoned while queued never runs).
 */
export function admissionControl(
  admission: FairAdmission,
  clientOf: (req: Parameters<RequestHandler>[0]) => string,
  opts: { cost?: LoopCostBudget | null; retryAfterSeconds?: number } = {},
): RequestHandler {
  return (req, res, next) => {
    const client = clientOf(req);
    const over = opts.cost && admission.contended(client) ? opts.cost.refusal(client) : null;
    if (over) {
      res
        .status(429)
        .set('Retry-After', String(over.retryAfterSeconds))
        .json({ error: { code: 'RATE_LIMITED', message: "this client used its share of the server's compute; retry after the Retry-After header's seconds", field: null } });
      return;
    }
    const slot = admission.enter(client);
    if (!slot.ok) {
      res
        .status(503)
        .set('Retry-After', String(opts.retryAfterSeconds ?? 1))
        .json({ error: { code: 'OVERLOADED', message: `server busy (${slot.refusal}); retry after the Retry-After header's seconds`, field: null } });
      return;
    }
    let stopMeter: (() => number) | null = null;
    res.on('close', () => {
      const cost = stopMeter?.() ?? 0;
      if (opts.cost && cost > 0 && admission.contended(client)) opts.cost.charge(client, cost);
      slot.leave();
    });
    slot.admitted.then(() => {
      if (res.destroyed || res.writableEnded) return;
      stopMeter = opts.cost?.meter() ?? null;
      // The diagnose pool reads whose request this is (its lanes: pool-lanes.ts).
      requestClient.run(client, next);
    }, next);
  };
}
