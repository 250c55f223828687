/**
 * bench/replicas.ts phase 1, fairness (issue 28): one client (1 connection) alone, another
 * client saturating /v1/diagnose (`busy` connections) alone, then both at once beside a
 * /healthz prober, per server configuration. Configurations are interleaved round by round
 * (each round starts a fresh server per configuration), so a change in the machine's load
 * hits every configuration alike; the summary is the median over rounds. The light client
 * sends back to back by default (then it is a second saturating client: it alone nearly fills
 * the server, docs/deployment.md), or `lightRate` requests per second, as a clinician's
 * interactive use would.
 */
import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import type { ServeProcess } from './serve-process.js';

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  status: Record<string, number>;
}

/** `rate` > 0: at most that many requests per second in all (an interactive client), else as fast as answers come back. */
export async function load(url: string, key: string, connections: number, seconds: number, texts: readonly string[], path = '/v1/diagnose', rate = 0): Promise<Load> {
  let i = 0;
  const diagnose = path === '/v1/diagnose';
  const r = await autocannon({
    url, connections, duration: seconds, timeout: 30, ...(rate > 0 ? { overallRate: rate } : {}),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    requests: [{ method: diagnose ? 'POST' : 'GET', path, ...(diagnose ? { setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ text: texts[i++ % texts.length] }) }) } : {}) }],
  });
  const status: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) status[k] = (v as { count: number }).count;
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, status };
}

export interface FairnessConfig {
  name: string;
  env: Record<string, string>;
}

export interface FairnessRound {
  config: string;
  round: number;
  load1: number;
  lightAloneP99: number;
  lightBusyP99: number;
  p99Ratio: number;
  lightAloneRps: number;
  lightBusyRps: number;
  busyAloneRps: number;
  busyBusyRps: number;
  busyShare: number;
  healthP99: number;
  status429: number;
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

export async function fairnessPhase(o: {
  configs: readonly FairnessConfig[];
  rounds: number;
  seconds: number;
  busy: number;
  /** The light client's requests per second; 0 = back to back. */
  lightRate: number;
  keys: { light: string; busy: string };
  texts: readonly string[];
  serve: (env: Record<string, string>) => Promise<ServeProcess>;
  stop: (p: ServeProcess) => Promise<void>;
}): Promise<{ rounds: FairnessRound[]; summary: Record<string, unknown>[] }> {
  const rounds: FairnessRound[] = [];
  const { seconds, keys, texts } = o;
  const light = (url: string) => load(url, keys.light, 1, seconds, texts, '/v1/diagnose', o.lightRate);
  for (let round = 1; round <= o.rounds; round++) {
    for (const c of o.configs) {
      const s = await o.serve(c.env);
      try {
        await load(s.url, keys.light, 2, 2, texts); // warm-up
        const lightAlone = await light(s.url);
        const busyAlone = await load(s.url, keys.busy, o.busy, seconds, texts);
        const [lightBusy, busyBusy, health] = await Promise.all([light(s.url), load(s.url, keys.busy, o.busy, seconds, texts), load(s.url, keys.light, 1, seconds, texts, '/healthz')]);
        const row: FairnessRound = {
          config: c.name, round, load1: r2(loadavg()[0]!), lightAloneP99: lightAlone.p99, lightBusyP99: lightBusy.p99, p99Ratio: r2(lightBusy.p99 / Math.max(1, lightAlone.p99)),
          lightAloneRps: r2(lightAlone.rps), lightBusyRps: r2(lightBusy.rps), busyAloneRps: r2(busyAlone.rps), busyBusyRps: r2(busyBusy.rps), busyShare: Math.round((busyBusy.rps / busyAlone.rps) * 100),
          healthP99: health.p99, status429: [lightBusy, busyBusy, busyAlone, lightAlone].reduce((n, l) => n + (l.status['429'] ?? 0), 0),
        };
        rounds.push(row);
        process.stdout.write(`fairness round ${round} ${c.name}: light p99 alone ${row.lightAloneP99} ms, with busy ${row.lightBusyP99} ms (x${row.p99Ratio}); light ${row.lightAloneRps} → ${row.lightBusyRps} req/s; busy ${row.busyBusyRps} req/s with light vs ${row.busyAloneRps} alone (${row.busyShare}%); /healthz p99 ${row.healthP99} ms; 429s ${row.status429}; load ${row.load1}\n`);
      } finally {
        await o.stop(s);
      }
    }
  }
  const summary = o.configs.map((c) => {
    const mine = rounds.filter((r) => r.config === c.name);
    return { config: c.name, rounds: mine.length, p99Ratio: median(mine.map((r) => r.p99Ratio)), busyShare: median(mine.map((r) => r.busyShare)), healthP99: median(mine.map((r) => r.healthP99)), status429: mine.reduce((n, r) => n + r.status429, 0) };
  });
  for (const s of summary) process.stdout.write(`fairness median ${s.config}${o.lightRate > 0 ? ` (light ${o.lightRate} req/s)` : ''}: p99 ratio x${s.p99Ratio}, busy share ${s.busyShare}%, /healthz p99 ${s.healthP99} ms, 429s ${s.status429} (${s.rounds} rounds)\n`);
  return { rounds, summary };
}
