/**
 * Vocabulary scale, served (issue 29): a hospital-sized KG built the way a user builds one — a CSV
 * of N generated records over D diagnoses and F coded findings (vocab-kg.ts), `dxgraph build
 * --source csv:… --mapping …` into a dedicated Neo4j and FAISS — then a real `dxgraph serve`
 * asked by one client over HTTP: /v1/diagnose p50 / p99, a consultation's answer turns, top-1 /
 * top-10 on held-out generated cases, the build's wall time and stage timings, the server's RSS.
 *
 *   npx tsx bench/scale/vocab-served.ts [--sizes 1000x5000x100000] [--queries 300] [--turns 100]
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { runDxgraph } from '../../test/support/cli.js';
import { benchNeo4j } from '../lib/neo4j.js';
import { startServeProcess } from '../lib/serve-process.js';
import { percentile } from '../lib/session-turns.js';
import { vocabRecords, type VocabCase, type VocabOptions } from './vocab-kg.js';

/** Findings as a hospital's problem-list column: one distinct finding per value, each its own feature and yes/no question. */
const MAPPING = { id: 'id', diagnosis: 'diagnosis', manifestations: ['findings'] };
const finding = (f: number) => ({ text: `finding ${f}`, polarity: 'present', code: null, valueCode: null });

/** Writes the CSV (streamed: 1M rows fit) and returns the held-out cases. */
async function writeCsv(path: string, o: VocabOptions): Promise<VocabCase[]> {
  const out = createWriteStream(path);
  out.write('id,diagnosis,findings\n');
  const gen = vocabRecords(o);
  let next = gen.next();
  for (let i = 0; !next.done; next = gen.next(), i++) {
    if (!out.write(`r${i},diagnosis ${next.value.disease},${next.value.present.map((f) => `finding ${f}`).join('; ')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return next.value;
}

async function post(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

export interface VocabServedRow {
  label: string;
  buildSeconds: number;
  stages: string;
  diagnose: { p50: number; p99: number };
  turn: { p50: number; p99: number };
  top1: number;
  top10: number;
  serveRssMb: number;
}

export async function vocabServed(o: VocabOptions & { queries: number; turns: number; neo4jUri?: string | null; keepDir?: string | null }, log: (s: string) => void): Promise<VocabServedRow> {
  const label = `${o.diseases} × ${o.features} × ${o.records}`;
  const dir = o.keepDir ?? (await mkdtemp(join(tmpdir(), 'dxgraph-vocab-served-')));
  const neo = await benchNeo4j({ uri: o.neo4jUri ?? null });
  try {
    const csv = join(dir, 'ehr.csv');
    const cases = await writeCsv(csv, { ...o, cases: Math.max(o.queries, 50) });
    await writeFile(join(dir, 'mapping.json'), JSON.stringify(MAPPING));
    const env: Record<string, string> = { NEO4J_URI: neo.uri, NEO4J_PASSWORD: '', DXGRAPH_DATA_DIR: join(dir, 'data'), DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LLM: 'none', DXGRAPH_LOG_LEVEL: 'warn', DXGRAPH_RATE_LIMIT_MAX: '0' };
    const t0 = performance.now();
    const built = await runDxgraph(['build', '--source', `csv:${csv}`, '--mapping', join(dir, 'mapping.json')], env);
    const buildSeconds = (performance.now() - t0) / 1000;
    if (built.code !== 0) throw new Error(`build failed: ${built.stderr.slice(-1500)}`);
    const stages = /timings \(ms\): (.*)/.exec(built.stdout)?.[1] ?? '(no timings line)';
    log(`${label}: built in ${buildSeconds.toFixed(1)} s: ${stages}`);
    const server = await startServeProcess({ ...process.env, ...env }, dir);
    try {
      const url = `${server.url}/v1/diagnose`;
      for (const c of cases.slice(0, 10)) await post(url, { findings: c.present.map(finding) }); // warm-up
      const ms: number[] = [];
      const stageMs = new Map<string, number[]>();
      let top1 = 0;
      let top10 = 0;
      const qs = cases.slice(0, o.queries);
      for (const c of qs) {
        const t = performance.now();
        const r = await post(url, { findings: c.present.map(finding), options: { followUps: 3 } });
        ms.push(performance.now() - t);
        for (const [k, v] of Object.entries(r.trace?.timingsMs ?? {})) stageMs.set(k, [...(stageMs.get(k) ?? []), v as number]);
        const names: string[] = r.differential.map((d: { disease: string }) => d.disease);
        if (names[0] === `diagnosis ${c.disease}`) top1++;
        if (names.slice(0, 10).includes(`diagnosis ${c.disease}`)) top10++;
      }
      log(`${label}: diagnose stages p50 / p99 ms: ${[...stageMs].map(([k, v]) => `${k} ${percentile(v, 0.5).toFixed(1)} / ${percentile(v, 0.99).toFixed(1)}`).join(', ')}`);
      const turns: number[] = [];
      for (let s = 0; turns.length < o.turns; s++) {
        const c = cases[s % cases.length]!;
        let view = await post(`${server.url}/v1/sessions`, { findings: c.present.slice(0, 2).map(finding) });
        for (let i = 0; i < 8 && turns.length < o.turns && view.questions.length > 0; i++) {
          const q = view.questions[0];
          const t = performance.now();
          view = await post(`${server.url}/v1/sessions/${view.sessionId}/answers`, { version: view.version, answers: [{ questionId: q.id, answer: q.answerType === 'yes-no' ? { type: 'no' } : { type: 'options', optionIds: [] } }] });
          turns.push(performance.now() - t);
        }
        await fetch(`${server.url}/v1/sessions/${view.sessionId}`, { method: 'DELETE' });
      }
      const rss = Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${server.pid}/status`, 'utf8').catch(() => ''))?.[1] ?? NaN) / 1024;
      return { label, buildSeconds, stages, diagnose: { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) }, turn: { p50: percentile(turns, 0.5), p99: percentile(turns, 0.99) }, top1: top1 / qs.length, top10: top10 / qs.length, serveRssMb: rss };
    } finally {
      await server.stop();
    }
  } finally {
    await neo.stop();
    if (!o.keepDir) await rm(dir, { recursive: true, force: true });
  }
}

export function vocabServedTable(rows: readonly VocabServedRow[]): string {
  const f = (x: number) => x.toFixed(1);
  return [
    '| D × F × N | build s | diagnose p50 / p99 ms | session turn p50 / p99 ms | top-1 / top-10 | serve RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.label} | ${f(r.buildSeconds)} | ${f(r.diagnose.p50)} / ${f(r.diagnose.p99)} | ${f(r.turn.p50)} / ${f(r.turn.p99)} | ${r.top1.toFixed(2)} / ${r.top10.toFixed(2)} | ${Number.isNaN(r.serveRssMb) ? '—' : r.serveRssMb.toFixed(0)} |`),
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: a } = parseArgs({ options: { sizes: { type: 'string', default: '1000x5000x100000' }, queries: { type: 'string', default: '300' }, turns: { type: 'string', default: '100' }, 'neo4j-uri': { type: 'string' }, 'keep-dir': { type: 'string' } } });
  const rows: VocabServedRow[] = [];
  for (const spec of a.sizes!.split(',').filter(Boolean)) {
    const [diseases, features, records] = spec.split('x').map(Number) as [number, number, number];
    rows.push(await vocabServed({ diseases, features, records, queries: Number(a.queries), turns: Number(a.turns), neo4jUri: a['neo4j-uri'] ?? null, keepDir: a['keep-dir'] ?? null }, (s) => process.stderr.write(`[vocab-served] ${s}\n`)));
  }
  process.stdout.write(vocabServedTable(rows));
}
