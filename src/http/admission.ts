import type { RequestHandler } from 'express';

/**
 * Bounded, fair admission for diagnose work (issue 18). The pipeline runs on the one event
 * loop; without a bound, a client sending heavy requests as fast as the rate limit allows
 * had every one of them in progress at once, and another client's request waited behind all
 * of them (p50 14 ms → 5 s). Here at most `maxActive` requests run; the rest wait in one
 * queue per client, served round-robin, so another client's request waits for at most the
 * requests already running, not for everything a hostile client queued. Past `maxQueued`
 * (or a client's `maxQueuedPerClient`) the answer is 503 with Retry-After: shedding load
 * is cheaper than holding sockets and memory for requests that would time out anyway.
 */
export interface AdmissionLimits {
  maxActive: number;
  maxQueued: number;
  maxQueuedPerClient: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { maxActive: 4, maxQueued: 64, maxQueuedPerClient: 16 };

export type Refusal = 'queue full' | 'client queue full';

interface Waiter {
  admit: () => void;
}

export class FairAdmission {
  private active = 0;
  private queued = 0;
  /** Running requests per client: the next slot goes to a waiting client with the fewest... */
  private readonly running = new Map<string, number>();
  /** ...and among those, the one served longest ago (never = first): round-robin by service. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  /** Waiting requests per client, oldest first. */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(readonly limits: AdmissionLimits) {}

  get stats(): { active: number; queued: number } {
    return { active: this.active, queued: this.queued };
  }

  /**
   * Ask for a slot. `admitted` resolves when the request may run (at once when a slot is
   * free); call `release` exactly once when it is done, or `cancel` if it gave up waiting.
   */
  enter(client: string): { ok: true; admitted: Promise<void>; release: () => void; cancel: () => void } | { ok: false; refusal: Refusal } {
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      this.active--;
      const n = (this.running.get(client) ?? 1) - 1;
      if (n > 0) this.running.set(client, n);
      else this.running.delete(client);
      this.next();
      // Forget an idle client (bounded memory); its next request counts as never served.
      if (!this.running.has(client) && !this.queues.has(client)) this.lastServed.delete(client);
    };
    if (this.active < this.limits.maxActive && this.queued === 0) {
      this.start(client);
      return { ok: true, admitted: Promise.resolve(), release, cancel: release };
    }
    const own = this.queues.get(client) ?? [];
    if (own.length >= this.limits.maxQueuedPerClient) return { ok: false, refusal: 'client queue full' };
    if (this.queued >= this.limits.maxQueued) return { ok: false, refusal: 'queue full' };
    let admit!: () => void;
    const admitted = new Promise<void>((resolve) => (admit = resolve));
    let started = false;
    const waiter: Waiter = {
      admit: () => {
        started = true;
        admit();
      },
    };
    own.push(waiter);
    this.queues.set(client, own);
    this.queued++;
    const cancel = () => {
      if (started) return release();
      if (done) return;
      done = true;
      const list = this.queues.get(client);
      const i = list?.indexOf(waiter) ?? -1;
      if (list && i >= 0) {
        list.splice(i, 1);
        this.queued--;
        if (list.length === 0) this.queues.delete(client);
        if (!this.running.has(client) && !this.queues.has(client)) this.lastServed.delete(client);
      }
    };
    return { ok: true, admitted, release, cancel };
  }

  private before(a: string, b: string): boolean {
    const ra = this.running.get(a) ?? 0;
    const rb = this.running.get(b) ?? 0;
    if (ra !== rb) return ra < rb;
    return (this.lastServed.get(a) ?? -1) < (this.lastServed.get(b) ?? -1);
  }

  private start(client: string): void {
    this.lastServed.set(client, ++this.served);
    this.active++;
    this.running.set(client, (this.running.get(client) ?? 0) + 1);
  }

  private next(): void {
    while (this.active < this.limits.maxActive && this.queued > 0) {
      let pick: string | null = null;
      for (const c of this.queues.keys()) if (pick === null || this.before(c, pick)) pick = c;
      const list = this.queues.get(pick!)!;
      const waiter = list.shift()!;
      this.queued--;
      if (list.length === 0) this.queues.delete(pick!);
      this.start(pick!);
      waiter.admit();
    }
  }
}

/**
 * Express middleware around one FairAdmission: waits for a slot, releases it when the
 * response is finished or the client goes away (a request abandoned while queued never runs).
 */
export function admissionControl(admission: FairAdmission, clientOf: (req: Parameters<RequestHandler>[0]) => string, retryAfterSeconds = 1): RequestHandler {
  return (req, res, next) => {
    const slot = admission.enter(clientOf(req));
    if (!slot.ok) {
      res
        .status(503)
        .set('Retry-After', String(retryAfterSeconds))
        .json({ error: { code: 'OVERLOADED', message: `server busy (${slot.refusal}); retry after the Retry-After header's seconds`, field: null } });
      return;
    }
    let running = false;
    res.on('close', () => (running ? slot.release() : slot.cancel()));
    slot.admitted.then(() => {
      if (res.destroyed || res.writableEnded) return slot.release();
      running = true;
      next();
    }, next);
  };
}
