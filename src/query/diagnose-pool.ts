/**
 * `diagnose` on a pool of worker threads (issue 28): matching, scoring and ranking are CPU
 * work, and on the server's event loop one client's heavy diagnoses delayed everyone's
 * requests, health probes included (p99 ×2.1 measured by hand). Each worker opens the same
 * query service (diagnose-worker.ts) and runs one diagnose at a time; the pool queues the
 * rest in arrival order (admission.ts already bounds and shares what gets this far).
 * With `background` workers, a client's concurrent jobs run on the low-priority lane
 * (pool-lanes.ts). A worker that dies fails its request (500) and is replaced.
 *
 * Workers start one after another, never together: faiss-node keeps ONE process-wide
 * reference to its Index constructor, which every thread loading the addon overwrites, and
 * `Index.read` builds through it, so two threads reading their indexes at once crashed the
 * process (seen in bench:replicas). Searching existing indexes is unaffected.
 */
import type { Worker } from 'node:worker_threads';
import { tsWorker } from '../util/ts-worker.js';
import type { Config } from '../config.js';
import { ArtifactError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { DiagnoseInput, DiagnoseResult } from './contracts.js';
import { BACKGROUND_NICE, HeavyClients, pickSlot, type Lane } from './pool-lanes.js';
import { requestClient } from './request-client.js';
import type { JsonRender } from './diagnose-json.js';
import { fromWire, type FromWorker, type ToWorker } from './worker-wire.js';

interface Job {
  id: number;
  input: DiagnoseInput;
  /** Set: the worker answers the rendered `/v1/diagnose` body (a string), not the result. */
  render: JsonRender | null;
  resolve: (r: DiagnoseResult | string) => void;
  reject: (e: Error) => void;
  signal: AbortSignal | null;
  /** Whose request (request-client.ts); null = none known, always foreground. */
  client: string | null;
}

interface Slot {
  worker: Worker;
  lane: Lane;
  job: Job | null;
}

export interface PoolOptions {
  /** Foreground workers (DXGRAPH_QUERY_WORKERS). */
  size: number;
  /** Low-priority workers for a client's concurrent jobs (DXGRAPH_QUERY_WORKERS_BACKGROUND); 0 = one lane. */
  background: number;
  config: Config;
  buildId: string | null;
  logger: Logger;
}

const ENTRY = new URL('./diagnose-worker.ts', import.meta.url);

export class DiagnosePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private readonly heavy = new HeavyClients();
  private closing = false;
  /** The last worker start: the next waits for it (see above). */
  private starting: Promise<void> = Promise.resolve();

  private constructor(private readonly o: PoolOptions) {}

  /** Starts the workers and waits until each serves `buildId` (the main thread's build). */
  static async open(o: PoolOptions): Promise<DiagnosePool> {
    const pool = new DiagnosePool(o);
    try {
      for (let i = 0; i < o.size; i++) await pool.spawn('foreground');
      for (let i = 0; i < o.background; i++) await pool.spawn('background');
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  diagnose = (input: DiagnoseInput, opts: { signal?: AbortSignal } = {}): Promise<DiagnoseResult> => this.submit(input, null, opts) as Promise<DiagnoseResult>;

  /** The `/v1/diagnose` body rendered in the worker: the main thread then only copies a string. */
  diagnoseJson = (input: DiagnoseInput, render: JsonRender, opts: { signal?: AbortSignal } = {}): Promise<string> => this.submit(input, render, opts) as Promise<string>;

  private submit(input: DiagnoseInput, render: JsonRender | null, opts: { signal?: AbortSignal }): Promise<DiagnoseResult | string> {
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, input, render, resolve, reject, signal: opts.signal ?? null, client: requestClient.getStore() ?? null };
      job.signal?.addEventListener('abort', () => this.cancel(job), { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const j of this.queue.splice(0)) j.reject(new Error('diagnose pool closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private spawn(lane: Lane): Promise<void> {
    const next = this.starting.then(() => this.startOne(lane));
    this.starting = next.catch(() => undefined);
    return next;
  }

  private startOne(lane: Lane): Promise<void> {
    // The session key stays on the main thread: workers never touch sessions.
    const config = { ...this.o.config, sessionStore: undefined };
    const worker = tsWorker(ENTRY, { workerData: { config, nice: lane === 'background' ? BACKGROUND_NICE : 0 } });
    return new Promise<void>((ready, failed) => {
      let started = false;
      worker.on('message', (m: FromWorker) => {
        if (m.type === 'ready') {
          if (m.buildId !== this.o.buildId) return failed(new ArtifactError(String(m.buildId), `a diagnose worker loaded KG build ${m.buildId ?? '(none)'}, the server ${this.o.buildId ?? '(none)'}: a build changed during start-up; restart`));
          started = true;
          this.slots.push({ worker, lane, job: null });
          this.dispatch();
          return ready();
        }
        const slot = this.slots.find((s) => s.worker === worker);
        const job = slot?.job;
        if (!slot || !job || job.id !== m.id) return; // a cancelled job's late answer
        slot.job = null;
        if (m.type === 'done') job.resolve(m.result);
        else if (m.type === 'json') job.resolve(m.json);
        else job.reject(fromWire(m.error));
        this.dispatch();
      });
      worker.on('error', (e) => {
        if (!started) return failed(e);
        this.o.logger.error({ err: e.message }, 'diagnose worker failed');
      });
      worker.on('exit', (code) => {
        const i = this.slots.findIndex((s) => s.worker === worker);
        if (i < 0) return;
        const [slot] = this.slots.splice(i, 1);
        slot!.job?.reject(new Error(`diagnose worker exited (${code})`));
        if (this.closing) return;
        this.o.logger.warn({ code }, 'diagnose worker exited; starting another');
        this.spawn(slot!.lane).catch((e: unknown) => this.o.logger.error({ err: (e as Error).message }, 'diagnose worker could not be replaced'));
      });
    });
  }

  /** Jobs in arrival order, each to the worker its lane allows; one that must wait does not hold back the others. */
  private dispatch(): void {
    for (let q = 0; q < this.queue.length; q++) {
      const job = this.queue[q]!;
      const running = job.client === null ? 0 : this.slots.filter((s) => s.job?.client === job.client).length;
      // A client that recently ran two at once is background for all its jobs (pool-lanes.ts).
      const now = Date.now();
      if (job.client !== null) this.heavy.note(job.client, running + this.queue.filter((j) => j.client === job.client).length, now);
      const others = job.client !== null && this.heavy.isHeavy(job.client, now) ? Math.max(1, running) : running;
      const i = pickSlot(this.slots.map((s) => ({ lane: s.lane, busy: s.job !== null })), others);
      if (i < 0) continue;
      this.queue.splice(q--, 1);
      const slot = this.slots[i]!;
      slot.job = job;
      slot.worker.postMessage({ type: 'run', id: job.id, input: job.input, ...(job.render ? { render: job.render } : {}) } satisfies ToWorker);
    }
  }

  /** A client gone while queued leaves the queue; one gone while running is told to its worker (the LLM budget stops). */
  private cancel(job: Job): void {
    const q = this.queue.indexOf(job);
    if (q >= 0) {
      this.queue.splice(q, 1);
      return job.reject(new Error('request aborted by the client'));
    }
    this.slots.find((s) => s.job === job)?.worker.postMessage({ type: 'cancel', id: job.id } satisfies ToWorker);
  }
}
