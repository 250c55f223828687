import autocannon from 'autocannon';
import type { EventEmitter } from 'node:events';

/**
 * One autocannon run against a dxgraph server with an API key: POST /v1/diagnose with the
 * texts in turn, or GET `path`. Used by the fairness phase's clients, in the bench's process
 * and in the busy client's own (load-client.ts).
 */
export interface Run {
  url: string;
  key: string;
  connections: number;
  seconds: number;
  texts: readonly string[];
  path?: string;
  /** Requests per second in all; 0 = as fast as answers come back. */
  rate?: number;
  /** Every response's latency (ms) and status. */
  onResponse?: (ms: number, status: number) => void;
}

export async function run(o: Run): Promise<{ requests: number; seconds: number; status: Record<string, number>; p50: number; p99: number }> {
  let i = 0;
  const path = o.path ?? '/v1/diagnose';
  const diagnose = path === '/v1/diagnose';
  // Without a callback autocannon returns its tracker, an EventEmitter that is also the result's promise (its types show only the promise).
  const inst = autocannon({
    url: o.url, connections: o.connections, duration: o.seconds, timeout: 30, ...(o.rate ? { overallRate: o.rate } : {}),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${o.key}` },
    requests: [{ method: diagnose ? 'POST' : 'GET', path, ...(diagnose ? { setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ text: o.texts[i++ % o.texts.length] }) }) } : {}) }],
  }) as unknown as Promise<autocannon.Result> & EventEmitter;
  if (o.onResponse) inst.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => o.onResponse!(ms, status));
  const r = await inst;
  const status: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) status[k] = (v as { count: number }).count;
  return { requests: r.requests.total, seconds: r.duration, status, p50: r.latency.p50, p99: r.latency.p99 };
}
