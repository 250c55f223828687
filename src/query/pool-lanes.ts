/**
 * Which worker of the diagnose pool runs a job (issue 28 fairness). Two lanes of workers:
 * foreground ones at the normal OS priority and background ones that lowered their own
 * thread's priority (nice +10, Linux: diagnose-worker.ts). A job whose client has nothing else
 * in the pool goes to a free foreground worker; a client's second and later concurrent jobs
 * go to background workers. Why: on a machine with as many cores as foreground workers, a
 * client that saturates diagnose otherwise takes a core beside every other client's request
 * (the measured p99 ×4-7, docs/deployment.md); niced, its work runs on what the others leave
 * idle, and alone it still has every core (nice only matters when threads compete).
 */
export type Lane = 'foreground' | 'background';

/** The background workers' niceness: CFS gives a nice +10 thread about a tenth of a nice 0 one's share. */
export const BACKGROUND_NICE = 10;

export interface LaneSlot {
  lane: Lane;
  busy: boolean;
}

/**
 * The index of the slot to run a job of a client with `othersOfClient` jobs already running
 * in the pool, or -1 to wait. A client with nothing running may take a background worker when
 * every foreground one is busy (waiting would only add latency); a busy client never takes a
 * foreground worker while it has a job running.
 */
export function pickSlot(slots: readonly LaneSlot[], othersOfClient: number): number {
  const free = (lane: Lane) => slots.findIndex((s) => !s.busy && s.lane === lane);
  if (othersOfClient === 0) {
    const fg = free('foreground');
    return fg >= 0 ? fg : free('background');
  }
  const bg = free('background');
  // Without background workers (lanes off) every worker is foreground: first free one.
  return bg >= 0 || slots.some((s) => s.lane === 'background') ? bg : free('foreground');
}

/**
 * Clients that recently had two or more diagnoses in the pool at once: every job of theirs goes
 * to the background lane, the first one too. Why: a client saturating with per-client
 * concurrency 2 always had one job with "nothing else running" for a moment, so one of its two
 * jobs ran on a foreground worker at normal priority beside everyone else's (measured: the
 * light client's p99 beside it ×2-4). A client asking one question at a time never becomes
 * heavy; a heavy one that stops is forgiven after `windowMs`. Alone it still has every core.
 */
export class HeavyClients {
  private readonly lastConcurrent = new Map<string, number>();

  constructor(private readonly windowMs = 1000) {}

  /** Note that `client` has `inPool` jobs in the pool (running or about to), at `now`. */
  note(client: string, inPool: number, now: number): void {
    if (inPool < 2) return;
    this.lastConcurrent.set(client, now);
    // Clients may be addresses (no API keys): forget the stale ones rather than grow without bound.
    if (this.lastConcurrent.size > 1024) for (const [c, t] of this.lastConcurrent) if (now - t > this.windowMs) this.lastConcurrent.delete(c);
  }

  isHeavy(client: string, now: number): boolean {
    const t = this.lastConcurrent.get(client);
    if (t === undefined) return false;
    if (now - t <= this.windowMs) return true;
    this.lastConcurrent.delete(client);
    return false;
  }
}
