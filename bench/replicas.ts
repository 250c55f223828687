/**
 * Replicas and fairness benchmark (issue 28), offline (evidence reasoner, hashed embedder), on
 * loopback, against real `dxgraph serve` processes over a build of the DDXPlus sample in a
 * dedicated Neo4j (or BENCH_NEO4J_URI, whose KG is replaced):
 *  1. fairness (bench/lib/fairness-phase.ts): one client (1 connection) alone, then while
 *     another client saturates diagnose (`--busy` connections): its p99 ratio, the busy
 *     client's rate vs alone, 429s, and the health probe's p99 meanwhile; with diagnose on
 *     the event loop (workers 0), on the worker pool (auto), on the pool with one worker kept
 *     free of any one client, and on the pool with a low-priority lane (pool-lanes.ts); the
 *     three states alternate in `--slice`-second slices, `--cycles` times;
 *  2. session answer-turn latency, sessions in memory vs in Neo4j, interleaved over the rounds;
 *  3. throughput of one replica vs two on this machine (sessions in Neo4j).
 *
 *   npm run bench:replicas [-- --duration 10 --busy 8 --rounds 2 --cycles 8 --slice 3 --light-rate 20 --busy-nice 19 --configs loop,pool,pool-per-client-1,pool-lanes --phases fairness,sessions,replicas --json out.json]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbedder } from '../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { loadConfig } from '../src/config.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';
import { runBuild } from '../kg-build/pipeline.js';
import { fairnessPhase, load as loadOf } from './lib/fairness-phase.js';
import { benchNeo4j } from './lib/neo4j.js';
import { startServeProcess, type ServeProcess } from './lib/serve-process.js';
import { answerTurns, percentile } from './lib/session-turns.js';

const BUSY_KEY = `busy-${randomBytes(12).toString('hex')}`;
const LIGHT_KEY = `light-${randomBytes(12).toString('hex')}`;
const TEXTS = [
  'fever, dry cough and sore throat for two days, muscle aches',
  'sudden crushing chest pain radiating to the left arm, sweating, shortness of breath',
  'itchy rash with swelling of the lips after eating peanuts, wheezing',
  'burning pain behind the breastbone after meals, worse lying down, sour taste',
  'runny nose, sneezing, mild cough, no fever',
];

const r1 = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const { values: a } = parseArgs({
    options: { duration: { type: 'string', default: '10' }, busy: { type: 'string', default: '8' }, turns: { type: 'string', default: '40' }, rounds: { type: 'string', default: '2' }, cycles: { type: 'string', default: '8' }, slice: { type: 'string', default: '3' }, 'light-rate': { type: 'string', default: '20' }, 'busy-nice': { type: 'string', default: '19' }, configs: { type: 'string', default: 'loop,pool,pool-per-client-1,pool-lanes' }, phases: { type: 'string', default: 'fairness,sessions,replicas' }, json: { type: 'string' } },
  });
  const seconds = Number(a.duration);
  const busy = Number(a.busy);
  const rounds = Number(a.rounds);
  const phases = new Set(a.phases!.split(','));
  const load = (url: string, key: string, connections: number, secs: number) => loadOf(url, key, connections, secs, TEXTS);
  const neo4j = await benchNeo4j({ uri: process.env.BENCH_NEO4J_URI ?? null });
  const dataDir = mkdtempSync(join(tmpdir(), 'dx-bench-replicas-'));
  const hosts: string[] = [];
  const running: ServeProcess[] = [];
  const env = {
    ...process.env, NEO4J_URI: neo4j.uri, NEO4J_PASSWORD: '', DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LOG_LEVEL: 'warn',
    DXGRAPH_API_KEYS: `${BUSY_KEY},${LIGHT_KEY}`, DXGRAPH_SESSION_KEY: randomBytes(32).toString('hex'),
    // Per-client admission and the loop-cost share stay on (they need a rate limit); the request count limit is out of the way.
    DXGRAPH_RATE_LIMIT_MAX: '10000000',
  };
  const serve = async (extra: Record<string, string>): Promise<ServeProcess> => {
    const host = mkdtempSync(join(tmpdir(), 'dx-bench-host-'));
    hosts.push(host);
    const p = await startServeProcess({ ...env, ...extra }, host);
    running.push(p);
    return p;
  };
  const stop = async (p: ServeProcess) => {
    await p.stop();
    running.splice(running.indexOf(p), 1);
  };
  const report: Record<string, unknown> = {};
  try {
    const t0 = Date.now();
    const graph = new GraphStore(loadConfig(env).neo4j);
    await graph.connect();
    const source = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
    try {
      await runBuild(
        { source, dataDir, params: { hierarchy: 'statistical', sizes: { subcategories: 'auto', categories: 'auto' }, cluster: {}, decompose: {}, keyDifferences: {}, index: {}, batchSize: 2000, recordsInGraph: false, triplesFile: null, split: null } },
        { graph, embedder: createEmbedder(loadConfig(env)), indexFactory: FaissVectorIndex, llm: null },
      );
    } finally {
      await source.close();
      await graph.close();
    }
    process.stderr.write(`bench:replicas build of the DDXPlus sample: ${((Date.now() - t0) / 1000).toFixed(1)} s; ${seconds} s per measurement, busy client ${busy} connections\n`);

    // 1. Fairness, diagnose on the event loop vs on the worker pool.
    if (phases.has('fairness')) {
      const pool = (perClient: string, background: string) => ({ DXGRAPH_QUERY_WORKERS: 'auto', DXGRAPH_QUERY_WORKERS_BACKGROUND: background, DXGRAPH_DIAGNOSE_CONCURRENCY_PER_CLIENT: perClient, DXGRAPH_SESSIONS: 'memory' });
      report.fairness = await fairnessPhase({
        configs: [
          { name: 'loop', env: { DXGRAPH_QUERY_WORKERS: '0', DXGRAPH_DIAGNOSE_CONCURRENCY_PER_CLIENT: '2', DXGRAPH_SESSIONS: 'memory' } },
          { name: 'pool', env: pool('2', '0') },
          // One worker kept free of any one client (per client 1 with 2 cores).
          { name: 'pool-per-client-1', env: pool('1', '0') },
          // A client's concurrent diagnoses on niced background workers (src/query/pool-lanes.ts).
          { name: 'pool-lanes', env: pool('2', 'auto') },
        ].filter((c) => a.configs!.split(',').includes(c.name)),
        cycles: Number(a.cycles), slice: Number(a.slice), busy, busyNice: Number(a['busy-nice']), lightRate: Number(a['light-rate']), keys: { light: LIGHT_KEY, busy: BUSY_KEY }, texts: TEXTS, serve, stop,
      });
    }

    // 2. Session answer turns: memory vs Neo4j, interleaved round by round.
    if (phases.has('sessions')) {
      const all: Record<string, number[]> = { memory: [], neo4j: [] };
      for (let round = 1; round <= rounds; round++) {
        for (const store of ['memory', 'neo4j']) {
          const s = await serve({ DXGRAPH_SESSIONS: store });
          await answerTurns(s.url, LIGHT_KEY, 5, TEXTS); // warm-up
          const ms = await answerTurns(s.url, LIGHT_KEY, Number(a.turns), TEXTS);
          all[store]!.push(...ms);
          process.stdout.write(`session answer turn round ${round}, ${store}: p50 ${r1(percentile(ms, 0.5))} ms, p99 ${r1(percentile(ms, 0.99))} ms over ${ms.length} turns; load ${loadavg()[0]!.toFixed(2)}\n`);
          await stop(s);
        }
      }
      report.sessionTurns = Object.entries(all).map(([store, ms]) => ({ store, turns: ms.length, p50: r1(percentile(ms, 0.5)), p90: r1(percentile(ms, 0.9)), p99: r1(percentile(ms, 0.99)) }));
      for (const row of report.sessionTurns as { store: string; turns: number; p50: number; p90: number; p99: number }[]) {
        process.stdout.write(`session answer turn, ${row.store}, all rounds: p50 ${row.p50} ms, p90 ${row.p90} ms, p99 ${row.p99} ms over ${row.turns} turns\n`);
      }
    }

    // 3. One replica vs two on this machine.
    if (phases.has('replicas')) {
      const one = await serve({ DXGRAPH_SESSIONS: 'neo4j' });
      await load(one.url, BUSY_KEY, 2, 2);
      const single = await load(one.url, BUSY_KEY, busy, seconds);
      const two = await serve({ DXGRAPH_SESSIONS: 'neo4j' });
      await load(two.url, BUSY_KEY, 2, 2);
      const pair = await Promise.all([load(one.url, BUSY_KEY, busy / 2, seconds), load(two.url, LIGHT_KEY, busy / 2, seconds)]);
      report.replicas = { oneRps: r1(single.rps), twoRps: r1(pair[0].rps + pair[1].rps), twoP99: Math.max(pair[0].p99, pair[1].p99), oneP99: single.p99 };
      process.stdout.write(`throughput: one replica ${r1(single.rps)} req/s (p99 ${single.p99} ms), two replicas ${r1(pair[0].rps + pair[1].rps)} req/s (p99 ${Math.max(pair[0].p99, pair[1].p99)} ms), ${busy} connections in all\n`);
    }
    if (a.json) writeFileSync(a.json, JSON.stringify(report, null, 2));
  } finally {
    for (const p of [...running]) await p.stop();
    for (const d of [dataDir, ...hosts]) rmSync(d, { recursive: true, force: true });
    await neo4j.stop();
  }
}

await main().catch((e: unknown) => {
  process.stderr.write(`bench:replicas: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
