import { summarize } from './stats.js';

/**
 * A bounded closed-loop HTTP load: `concurrency` workers each send the next request as soon
 * as their previous one answered, until `requests` have been sent (after `warmup`
 * unmeasured ones). Latency is client-side, send to full body read; throughput is
 * measured requests over wall time. Any non-2xx counts as an error (and is not timed).
 */
export interface LoadOptions {
  url: string;
  bodies: readonly string[];
  requests: number;
  concurrency: number;
  warmup: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  concurrency: number;
  seconds: number;
  rps: number;
  latencyMs: ReturnType<typeof summarize>;
  /** First error status/message, for the report. */
  firstError: string | null;
}

async function once(url: string, body: string): Promise<{ ok: boolean; ms: number; why: string }> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    return { ok: res.ok, ms: performance.now() - t0, why: res.ok ? '' : `HTTP ${res.status}` };
  } catch (e) {
    return { ok: false, ms: performance.now() - t0, why: (e as Error).message };
  }
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  for (let i = 0; i < o.warmup; i++) await once(o.url, o.bodies[i % o.bodies.length]!);
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | null = null;
  const t0 = performance.now();
  const worker = async () => {
    while (next < o.requests) {
      const i = next++;
      const r = await once(o.url, o.bodies[i % o.bodies.length]!);
      if (r.ok) latencies.push(r.ms);
      else {
        errors++;
        firstError ??= r.why;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  return { requests: o.requests, errors, concurrency: o.concurrency, seconds, rps: Math.round((latencies.length / seconds) * 10) / 10, latencyMs: summarize(latencies), firstError };
}
