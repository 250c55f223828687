/**
 * bench/replicas.ts phase 1, fairness (issue 28): one client (1 connection) alone, another
 * client saturating /v1/diagnose (`busy` connections) alone, and both at once beside a
 * /healthz prober, per server configuration. On a machine shared with other jobs, "alone" and
 * "together" measured a minute apart saw different machines (alone p99 10 ms in one run, 305
 * ms in the next), so the three states alternate in short slices (`slice` seconds, `cycles`
 * times, the order rotated each cycle) and each state's latencies are pooled over its slices:
 * a change in the machine's load hits all three alike. The light client sends back to back
 * (then it is a second saturating client: alone it nearly fills the server), or `lightRate`
 * requests per second, as a clinician's interactive use would. The busy client runs in a
 * process of its own (load-client.ts), as a client on another host would: in this one its
 * connections shared the event loop that timed the light client's requests.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { run } from './autocannon-run.js';
import type { LoadDone, LoadRun } from './load-client.js';
import type { ServeProcess } from './serve-process.js';

const LOAD_CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url));

/**
 * The busy client in its own process (load-client.ts): one run per call, in turn, at niceness
 * `nice`. Why niced: a client saturating the server from another host spends none of the
 * server's CPU on generating its load; on this one box its autocannon process took a core's
 * share at normal priority from the server it was measuring (light client's p99 ×3-4 with
 * it at 0 in the same configuration, docs/deployment.md). Both states of the comparison use
 * the same client, so "alone" and "beside" stay comparable.
 */
function busyClient(nice: number): { run(m: Omit<LoadRun, 'type'>): Promise<LoadDone>; close(): void } {
  const child: ChildProcess = fork(LOAD_CLIENT, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (nice !== 0) setPriority(child.pid!, nice);
  let pending: { resolve: (d: LoadDone) => void; reject: (e: Error) => void } | null = null;
  child.on('message', (m: LoadDone | { type: 'error'; message: string }) => {
    const p = pending;
    pending = null;
    if (m.type === 'done') p?.resolve(m);
    else p?.reject(new Error(`busy client: ${m.message}`));
  });
  child.on('exit', (code) => pending?.reject(new Error(`busy client exited (${code})`)));
  return {
    run: (m) => new Promise<LoadDone>((resolve, reject) => {
      pending = { resolve, reject };
      child.send({ type: 'run', ...m });
    }),
    close: () => void (child.connected ? child.send({ type: 'exit' }) : child.kill()),
  };
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  status: Record<string, number>;
}

/** One load run's rate and latency (the replicas phase). */
export async function load(url: string, key: string, connections: number, seconds: number, texts: readonly string[]): Promise<Load> {
  const r = await run({ url, key, connections, seconds, texts });
  return { rps: r.requests / r.seconds, p50: r.p50, p99: r.p99, status: r.status };
}

export interface FairnessConfig {
  name: string;
  env: Record<string, string>;
}

type State = 'light' | 'both' | 'busy';
const ORDER: State[] = ['light', 'both', 'busy'];
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

export async function fairnessPhase(o: {
  configs: readonly FairnessConfig[];
  cycles: number;
  slice: number;
  busy: number;
  /** Niceness of the busy client's process (busyClient). */
  busyNice: number;
  lightRate: number;
  keys: { light: string; busy: string };
  texts: readonly string[];
  serve: (env: Record<string, string>) => Promise<ServeProcess>;
  stop: (p: ServeProcess) => Promise<void>;
}): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  const { keys, texts, slice } = o;
  for (const c of o.configs) {
    const s = await o.serve(c.env);
    const light: Record<State, number[]> = { light: [], both: [], busy: [] };
    const busy: Record<State, { requests: number; seconds: number }> = { light: { requests: 0, seconds: 0 }, both: { requests: 0, seconds: 0 }, busy: { requests: 0, seconds: 0 } };
    const health: number[] = [];
    let status429 = 0;
    const loads: number[] = [];
    const other = busyClient(o.busyNice);
    try {
      await run({ url: s.url, key: keys.busy, connections: 2, seconds: 2, texts }); // warm-up
      for (let cycle = 0; cycle < o.cycles; cycle++) {
        for (let k = 0; k < ORDER.length; k++) {
          const state = ORDER[(k + cycle) % ORDER.length]!;
          const runs: Promise<unknown>[] = [];
          const count = (st: number) => void (status429 += st === 429 ? 1 : 0);
          if (state !== 'busy') runs.push(run({ url: s.url, key: keys.light, connections: 1, seconds: slice, texts, rate: o.lightRate, onResponse: (ms, st) => (count(st), light[state].push(ms)) }));
          if (state !== 'light') {
            // The busy client's rate counts answered diagnoses only (a 429 is quick and would inflate it).
            runs.push(other.run({ url: s.url, key: keys.busy, connections: o.busy, seconds: slice, texts }).then((r) => {
              busy[state].requests += r.answered;
              busy[state].seconds += r.seconds;
              status429 += r.status['429'] ?? 0;
            }));
          }
          if (state === 'both') runs.push(run({ url: s.url, key: keys.light, connections: 1, seconds: slice, texts, path: '/healthz', rate: 20, onResponse: (ms) => health.push(ms) }));
          await Promise.all(runs);
          loads.push(loadavg()[0]!);
        }
      }
    } finally {
      other.close();
      await o.stop(s);
    }
    const rate = (st: State) => busy[st].requests / Math.max(1e-9, busy[st].seconds);
    const row = {
      config: c.name, cycles: o.cycles, sliceSeconds: slice, lightRate: o.lightRate, load1: `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
      lightAlone: { n: light.light.length, p50: r2(pct(light.light, 0.5)), p90: r2(pct(light.light, 0.9)), p99: r2(pct(light.light, 0.99)), rps: r2(light.light.length / (o.cycles * slice)) },
      lightBusy: { n: light.both.length, p50: r2(pct(light.both, 0.5)), p90: r2(pct(light.both, 0.9)), p99: r2(pct(light.both, 0.99)), rps: r2(light.both.length / (o.cycles * slice)) },
      p99Ratio: r2(pct(light.both, 0.99) / pct(light.light, 0.99)),
      busyAloneRps: r2(rate('busy')), busyBusyRps: r2(rate('both')), busyShare: Math.round((rate('both') / rate('busy')) * 100),
      healthP99: r2(pct(health, 0.99)), status429,
    };
    rows.push(row);
    const { lightAlone: la, lightBusy: lb } = row;
    process.stdout.write(
      `fairness ${c.name}${o.lightRate ? ` (light ${o.lightRate} req/s)` : ' (light back to back)'}: light p50/p90/p99 alone ${la.p50}/${la.p90}/${la.p99} ms (${la.rps} req/s), beside busy ${lb.p50}/${lb.p90}/${lb.p99} ms (${lb.rps} req/s), p99 x${row.p99Ratio}; ` +
        `busy ${row.busyBusyRps} req/s beside light vs ${row.busyAloneRps} alone (${row.busyShare}%, its client at nice ${o.busyNice}); /healthz p99 ${row.healthP99} ms; 429s ${status429}; ${o.cycles}×3 slices of ${slice} s; load ${row.load1}\n`,
    );
  }
  return rows;
}
