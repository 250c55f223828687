/**
 * Load benchmark of `POST /v1/diagnose` (issue 10): N concurrent clients for D seconds
 * (autocannon) against the real server in offline mode (evidence reasoner, no LLM), on
 * loopback only. Prints throughput, latency percentiles, errors and the server's memory.
 *
 *   npm run bench:load                      # 50 clients x 60 s; spawns `dxgraph serve` on the
 *                                           # current build (NEO4J_URI, DXGRAPH_DATA_DIR)
 *   npm run bench:load -- --connections 10 --duration 5 --url http://127.0.0.1:8080 --json out.json
 *
 * Patient descriptions are the DDXPlus sample's text renderings (datasets/ddxplus), rotated
 * per request. Exit code 1 when any request failed.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isLoopback } from '../src/http/access.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  apiKey?: string;
  /** Patient texts, rotated over the requests. */
  texts?: readonly string[];
}

export interface LoadResult {
  connections: number;
  durationSeconds: number;
  requests: number;
  throughput: number;
  latency: { mean: number; p50: number; p90: number; p97_5: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

const DEFAULT_TEXTS = [
  'fever, dry cough and sore throat for two days, muscle aches',
  'sudden crushing chest pain radiating to the left arm, sweating, shortness of breath',
  'itchy rash with swelling of the lips after eating peanuts, wheezing',
  'burning pain behind the breastbone after meals, worse lying down, sour taste',
  'runny nose, sneezing, mild cough, no fever',
];

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const host = new URL(o.url).hostname;
  if (!isLoopback(host)) throw new Error(`bench:load runs on loopback only, not ${host}`);
  const texts = o.texts && o.texts.length > 0 ? o.texts : DEFAULT_TEXTS;
  let i = 0;
  const r = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.durationSeconds,
    timeout: 30,
    headers: { 'content-type': 'application/json', ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
    requests: [{ method: 'POST', path: '/v1/diagnose', setupRequest: (req) => ({ ...req, body: JSON.stringify({ text: texts[i++ % texts.length] }) }) }],
  });
  const codes: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) codes[k] = (v as { count: number }).count;
  return {
    connections: o.connections,
    durationSeconds: o.durationSeconds,
    requests: r.requests.total,
    throughput: r.requests.total / r.duration,
    latency: { mean: r.latency.mean, p50: r.latency.p50, p90: r.latency.p90, p97_5: r.latency.p97_5, p99: r.latency.p99, max: r.latency.max },
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes: codes,
  };
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function sampleTexts(limit: number): Promise<string[]> {
  const source = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
  const out: string[] = [];
  try {
    for await (const r of source.records()) if (out.push(r.text) >= limit) break;
  } finally {
    await source.close();
  }
  return out;
}

/** `dxgraph serve` in its own process, offline, no rate limit: the server measured alone. */
async function spawnServer(): Promise<{ child: ChildProcess; url: string }> {
  const env = { ...process.env, DXGRAPH_LLM: 'none', DXGRAPH_RATE_LIMIT_MAX: '0', DXGRAPH_LOG_LEVEL: 'warn' };
  const child = spawn(process.execPath, ['bin/dxgraph.js', 'serve', '--host', '127.0.0.1', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += String(c);
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`dxgraph serve exited (${code}): is Neo4j up and a build current? (dxgraph neo4j start; dxgraph build ...)`)));
  });
  return { child, url };
}

async function main(): Promise<void> {
  const { values: a } = parseArgs({
    options: { url: { type: 'string' }, connections: { type: 'string', default: '50' }, duration: { type: 'string', default: '60' }, json: { type: 'string' } },
  });
  const connections = Number(a.connections);
  const durationSeconds = Number(a.duration);
  if (!(connections >= 1 && connections <= 1000 && durationSeconds >= 1 && durationSeconds <= 3600)) throw new Error('--connections 1..1000, --duration 1..3600 s');
  const spawned = a.url ? null : await spawnServer();
  const url = a.url ?? spawned!.url;
  const apiKey = (process.env.DXGRAPH_API_KEYS ?? '').split(',')[0]?.trim() || undefined;
  try {
    const texts = await sampleTexts(500);
    const rssBefore = spawned ? rssMb(spawned.child.pid!) : null;
    process.stderr.write(`bench:load ${connections} clients x ${durationSeconds} s -> ${url}/v1/diagnose (${texts.length} patient texts)\n`);
    const result = await runLoad({ url, connections, durationSeconds, texts, ...(apiKey ? { apiKey } : {}) });
    const memory = spawned ? { rssBeforeMb: Math.round(rssBefore!), rssAfterMb: Math.round(rssMb(spawned.child.pid!)) } : null;
    const l = result.latency;
    process.stdout.write(
      `requests ${result.requests}  throughput ${result.throughput.toFixed(1)} req/s\n` +
        `latency ms: mean ${l.mean.toFixed(1)}  p50 ${l.p50}  p90 ${l.p90}  p97.5 ${l.p97_5}  p99 ${l.p99}  max ${l.max}\n` +
        `errors ${result.errors}  timeouts ${result.timeouts}  non-2xx ${result.non2xx}  status ${JSON.stringify(result.statusCodes)}\n` +
        (memory ? `server RSS ${memory.rssBeforeMb} MB -> ${memory.rssAfterMb} MB\n` : ''),
    );
    if (a.json) writeFileSync(a.json, JSON.stringify({ ...result, memory, url }, null, 2));
    if (result.errors + result.timeouts + result.non2xx > 0) process.exitCode = 1;
  } finally {
    if (spawned) {
      spawned.child.kill('SIGTERM');
      await new Promise((r) => spawned.child.once('exit', r));
    }
  }
}

// Run as a script, not when a test imports runLoad.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main().catch((e: unknown) => {
    process.stderr.write(`bench:load: ${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
