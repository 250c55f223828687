/**
 * Neo4j load-rate driver (issue 11): measures `kg-build/load-neo4j.ts` alone, on the exact
 * rows a real build loads, against a private Neo4j (free ports, deleted at the end).
 *
 *   npx tsx bench/load-rate.ts capture --dataset .dxgraph-bench/data/ddxplus-10000 --out /tmp/load.json
 *   npx tsx bench/load-rate.ts replay --in /tmp/load.json [--batch-size 5000] [--runs fresh,same,other] [--edges-per-tx N] [--in-flight N]
 *
 * `capture` runs the real build pipeline (records in the graph, no gate training) with a
 * recording GraphStore, so nothing is written anywhere but the capture file. `replay`
 * loads the captured KG + records with the real loader: `fresh` into an empty database,
 * `same` again (idempotent rerun), `other` under another build id (every record replaced,
 * the older build swept), `wipe` into an emptied database on the warmed-up server. Each run
 * first prepares the server untimed (prepareLoad: schema + query plans, which a build does
 * while it scans), then reports relationships read back / wall and / Neo4j CPU.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import neo4j, { type ProfiledPlan } from 'neo4j-driver-lite';
import { cypher } from '../src/adapters/neo4j/cypher.js';
import { createEmbedder } from '../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../src/adapters/faiss/vector-index.js';
import { boltAuth } from '../src/adapters/neo4j/bolt-auth.js';
import { GraphStore, type Row } from '../src/adapters/neo4j/graph-store.js';
import { loadConfig } from '../src/config.js';
import type { DiagnosticKg, ManifestationEdge } from '../src/domain/kg.js';
import { DdxplusSource } from '../src/sources/ddxplus/ddxplus-source.js';
import { loadNeo4j, manifestationBatch, prepareLoad, recordBatch, type LoadInput, type RecordRow } from '../kg-build/load-neo4j.js';
import { runBuild } from '../kg-build/pipeline.js';
import { benchParams } from './lib/phase-build.js';
import { processCpuMs } from '../src/util/proc-cpu.js';
import { benchNeo4j } from './lib/neo4j.js';

interface Capture {
  kg: Pick<DiagnosticKg, 'categories' | 'subcategories' | 'diseases' | 'features' | 'manifestations' | 'keyDifferences'>;
  degree: [string, number][];
  build: LoadInput['build'];
  records: RecordRow[];
}

const { positionals, values: a } = parseArgs({
  allowPositionals: true,
  options: { dataset: { type: 'string' }, out: { type: 'string' }, in: { type: 'string' }, 'batch-size': { type: 'string', default: '5000' }, runs: { type: 'string', default: 'fresh,same,other' }, 'edges-per-tx': { type: 'string' }, 'in-flight': { type: 'string' }, threads: { type: 'boolean', default: false }, profile: { type: 'string' } },
});

const REL_KEYS = ['isA', 'manifestations', 'hasKeyDifference', 'contrastsWith', 'about', 'aliasOf', 'hasFeature', 'diagnosedAs'];
const noop = { start: () => {}, update: () => {}, stop: () => {} };

async function capture(dataset: string, out: string): Promise<void> {
  const rows: Record<string, Row[]> = {};
  let build: Row = {};
  // Answers what the loader reads back (nothing stale, no counts): the capture writes nothing.
  const recorder = {
    uri: 'capture:',
    writeAll: async () => {},
    explain: async () => {},
    read: async () => [{}],
    write: async (name: string, p: Row) => {
      if (name === 'build/start-build') build = p;
      // merge-records rows refer to the batch's ids by position (load-neo4j.ts recordBatch): kept as RecordRows.
      else if (name === 'build/merge-records') (rows['merge-records'] ??= []).push(...(unshapeRecords(p) as unknown as Row[]));
      else if (name === 'build/merge-manifestations') (rows['merge-manifestations'] ??= []).push(...unshapeManifestations(p));
      else if (Array.isArray(p.rows)) (rows[name.slice('build/'.length)] ??= []).push(...(p.rows as Row[]));
      return [{ deleted: 0 }];
    },
  } as unknown as GraphStore;
  const config = loadConfig({ ...process.env, DXGRAPH_LLM: 'none' });
  const dataDir = await mkdtemp(join(tmpdir(), 'dxgraph-load-capture-'));
  const params = Object.assign(benchParams({ recordsInGraph: true, batchSize: 5000 }), { gate: { maxExamples: 0, calibrationExamples: 0 } });
  await runBuild({ source: new DdxplusSource(dataset, { strict: false }), dataDir, params }, { graph: recorder, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null, progress: noop });
  const features = [...(rows['merge-ehr-features'] ?? []), ...(rows['merge-augmented-features'] ?? [])];
  const cap: Capture = {
    kg: {
      categories: rows['merge-categories'] ?? [], subcategories: rows['merge-subcategories'] ?? [], diseases: rows['merge-diseases'] ?? [],
      features: features.map(({ degree: _d, ...f }) => f), manifestations: rows['merge-manifestations'] ?? [], keyDifferences: rows['merge-key-differences'] ?? [],
    } as unknown as Capture['kg'],
    degree: features.map((f) => [String(f.id), Number(f.degree)]),
    build: { id: String(build.id), source: String(build.source), embedder: String(build.embedder), embeddingDim: Number(build.embeddingDim), params: JSON.parse(String(build.params)), counts: JSON.parse(String(build.counts)), startedAt: String(build.startedAt) },
    records: (rows['merge-records'] ?? []) as unknown as RecordRow[],
  };
  writeFileSync(out, JSON.stringify(cap));
  console.log(`captured ${cap.records.length} records, ${cap.kg.features.length} features -> ${out}`);
}

function unshapeRecords(p: Row): RecordRow[] {
  const featureIds = p.featureIds as string[];
  const diseaseIds = p.diseaseIds as string[];
  return (p.rows as { id: string; diagnosis: string; d: number; f: number[] }[]).map((r) => ({ id: r.id, diagnosis: r.diagnosis, diseaseId: diseaseIds[r.d]!, featureIds: r.f.map((i) => featureIds[i]!) }));
}

/** --edges-per-tx / --in-flight: the loader's record-transaction knobs (its defaults when absent). */
function tuning(): { recordEdgesPerTx?: number; recordsInFlight?: number } {
  return { ...(a['edges-per-tx'] ? { recordEdgesPerTx: Number(a['edges-per-tx']) } : {}), ...(a['in-flight'] ? { recordsInFlight: Number(a['in-flight']) } : {}) };
}

function unshapeManifestations(p: Row): Row[] {
  const featureIds = p.featureIds as string[];
  const diseaseIds = p.diseaseIds as string[];
  return (p.rows as { d: number; f: number }[]).map(({ d, f, ...rest }) => ({ diseaseId: diseaseIds[d]!, featureId: featureIds[f]!, ...rest }));
}

async function* iterate<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}

async function replay(file: string, batchSize: number, runs: string[]): Promise<void> {
  const cap = JSON.parse(readFileSync(file, 'utf8')) as Capture;
  const neo = await benchNeo4j({ uri: null });
  const graph = new GraphStore({ uri: neo.uri, user: 'neo4j', password: '', database: 'neo4j' });
  await graph.connect();
  try {
    for (const kind of runs) {
      // `wipe`: an empty database again, on a server the earlier runs warmed up (JIT).
      if (kind === 'wipe') while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
      const build = kind === 'other' ? { ...cap.build, id: `${cap.build.id}-other` } : cap.build;
      const input: LoadInput = { kg: cap.kg as unknown as DiagnosticKg, degree: new Map(cap.degree), build, records: iterate(cap.records) };
      const steps = new Map<string, number>();
      // As a build does it, off the load's path (while it scans): schema and query plans.
      const p0 = performance.now();
      await prepareLoad(graph);
      const prepareMs = Math.round(performance.now() - p0);
      const cpu0 = processCpuMs(neo.pid);
      const t0 = performance.now();
      let last = t0;
      const out = await loadNeo4j(graph, input, { batchSize, ...tuning(), onBatch: (p) => { const now = performance.now(); steps.set(p.step, (steps.get(p.step) ?? 0) + now - last); last = now; } });
      const wallMs = performance.now() - t0;
      steps.set('(sweep + counts)', performance.now() - last);
      const cpuMs = (processCpuMs(neo.pid) ?? 0) - (cpu0 ?? 0);
      const rels = REL_KEYS.reduce((s, k) => s + (out.counts[k] ?? 0), 0);
      const top = [...steps].sort((x, y) => y[1] - x[1]).slice(0, 6).map(([k, v]) => `${k} ${Math.round(v)}ms`).join(', ');
      if (a.threads) console.log(threadCpu(neo.pid));
      if (a.threads && neo.pid) console.log(execFileSync('jcmd', [String(neo.pid), 'Compiler.codecache'], { encoding: 'utf8' }).split('\n').filter((l) => /size=|full_count|total_blobs/.test(l)).join(' | '));
      console.log(`${kind.padEnd(5)} batch ${batchSize}: ${rels} rels in ${Math.round(wallMs)} ms wall = ${Math.round(rels / (wallMs / 1000))} rels/s; Neo4j CPU ${Math.round(cpuMs)} ms = ${Math.round(rels / (cpuMs / 1000))} rels/CPU-s; stale ${JSON.stringify(out.stale)}; prepared before in ${prepareMs} ms; slowest: ${top}`);
    }
    if (a.profile) await profile(neo.uri, a.profile, profileParams(a.profile, cap, batchSize), `${cap.build.id}-profile`);
  } finally {
    await graph.close();
    await neo.stop();
  }
}

/** Neo4j's busiest threads so far (JIT compiler, GC, Bolt workers), from /proc: where a cold server's CPU goes. */
function threadCpu(pid: number | null): string {
  if (pid === null) return '';
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, '#');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // the thread ended meanwhile
    }
  }
  return [...byName].sort((x, y) => y[1] - x[1]).slice(0, 8).map(([k, v]) => `${k} ${v}ms`).join(', ');
}

/** One batch's parameters for a profiled query, shaped as the loader sends them. */
function profileParams(name: string, cap: Capture, batchSize: number): Row {
  if (name === 'build/merge-records') return recordBatch(cap.records.slice(0, batchSize));
  if (name === 'build/merge-manifestations') return manifestationBatch((cap.kg.manifestations as ManifestationEdge[]).slice(0, batchSize));
  const key = name.replace(/^build\/merge-/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) as keyof Capture['kg'];
  return { rows: ((cap.kg[key] as unknown[] | undefined) ?? []).slice(0, batchSize) };
}

/** PROFILE one batch of a named build query (e.g. build/merge-records): operators with rows and db hits. */
async function profile(uri: string, name: string, params: Row, buildId: string): Promise<void> {
  const driver = neo4j.driver(uri, boltAuth(null));
  const session = driver.session();
  try {
    const res = await session.run(`PROFILE ${cypher(name)}`, { ...params, buildId });
    const walk = (p: ProfiledPlan, depth: number): void => {
      console.log(`${'  '.repeat(depth)}${p.operatorType} rows=${p.rows} dbHits=${p.dbHits} ${String(p.arguments?.Details ?? '').slice(0, 100)}`);
      for (const c of p.children) walk(c, depth + 1);
    };
    walk(res.summary.profile as ProfiledPlan, 0);
    console.log(`profiled in ${res.summary.resultAvailableAfter} + ${res.summary.resultConsumedAfter} ms`);
  } finally {
    await session.close();
    await driver.close();
  }
}

const cmd = positionals[0];
if (cmd === 'capture') await capture(a.dataset!, a.out!);
else if (cmd === 'replay') await replay(a.in!, Number(a['batch-size']), a.runs!.split(','));
else throw new Error('usage: load-rate.ts capture|replay (see the header)');
