/**
 * Every real note posted to a real server (issue 47, items 3 and 7): the 2,312 MTSamples notes of
 * ../shared/datasets/mtsamples/notes.jsonl.gz (read only; no note text is ever printed) sent one at
 * a time to `POST /v1/diagnose` of a `dxgraph serve` process on port 0, over a KG built from the
 * DDXPlus codes (datasets/ddxplus) plus the 148 labelled MTSamples notes as notes (the KG a
 * hospital's own notes give; built in a temporary data dir, never committed).
 * Prints: notes refused and the distinct kinds of error (code + message with numbers masked), p50 /
 * p99 latency overall and for notes of 4-8k characters, findings read per note (p50 / p99) and
 * the per-stage p50 / p99 of the trace's timings.
 *
 *   node --import tsx bench/notes-latency.ts                          # dedicated Neo4j, fresh build, all notes
 *   node --import tsx bench/notes-latency.ts --limit 300 --json /tmp/lat.json
 *   node --import tsx bench/notes-latency.ts --neo4j-uri bolt://127.0.0.1:7687 --data-dir /tmp/kg --skip-build
 *   node --cpu-prof --import tsx bench/notes-latency.ts --in-process   # the server in this process, for a CPU profile
 *   node --import tsx bench/notes-latency.ts --limit 200 --outputs /tmp/before.jsonl   # per note: findings, matches, top-10
 *
 * --outputs writes what each answer read and ranked (findings, matches, the top 10 of the
 * differential), one JSON line per note, for checking a speed change leaves answers byte-identical
 * (`cmp` before/after). It holds the notes' words: write it outside the repository, never commit it.
 *
 * With --neo4j-uri that server's database is WIPED and rebuilt unless --skip-build.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { InputError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/server.js';
import { buildLatencyKg } from './lib/notes-latency-kg.js';
import { benchNeo4j } from './lib/neo4j.js';
import { startServeProcess } from './lib/serve-process.js';
import { percentile } from './lib/session-turns.js';

const { values: a } = parseArgs({
  options: {
    notes: { type: 'string', default: '../shared/datasets/mtsamples/notes.jsonl.gz' },
    // The KG's notes besides the DDXPlus codes ('' for codes only).
    'kg-notes': { type: 'string', default: '../shared/datasets/mtsamples/labelled-train.jsonl' },
    ddxplus: { type: 'string', default: 'datasets/ddxplus' },
    limit: { type: 'string', default: '0' },
    // Notes sent before the measured ones (JIT, caches), from the same file.
    warmup: { type: 'string', default: '20' },
    'neo4j-uri': { type: 'string' },
    'data-dir': { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    'in-process': { type: 'boolean', default: false },
    // DXGRAPH_RECORD_RETRIEVAL of the server ('' = its default).
    retrieval: { type: 'string', default: '' },
    json: { type: 'string' },
    outputs: { type: 'string' },
  },
});
const log = (s: string) => process.stderr.write(`[notes-latency] ${s}\n`);
if (a['skip-build'] && !(a['neo4j-uri'] && a['data-dir'])) throw new InputError('--skip-build needs --neo4j-uri and --data-dir holding that build', { field: 'skip-build' });

interface Note { id: string; text: string }
const notes: Note[] = gunzipSync(await readFile(a.notes!)).toString('utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Note);
const limit = Number(a.limit);
const asked = limit > 0 ? notes.slice(0, limit) : notes;

const neo = await benchNeo4j({ uri: a['neo4j-uri'] ?? null });
const dataDir = a['data-dir'] ? resolve(a['data-dir']) : await mkdtemp(join(tmpdir(), 'dxgraph-notes-latency-'));
const env: NodeJS.ProcessEnv = {
  ...process.env, NEO4J_URI: neo.uri, ...(neo.dedicated ? { NEO4J_PASSWORD: '' } : {}), DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_LOG_LEVEL: 'warn',
  DXGRAPH_API_KEYS: '', DXGRAPH_RATE_LIMIT_MAX: '0', ...(a.retrieval ? { DXGRAPH_RECORD_RETRIEVAL: a.retrieval } : {}),
};
const hostDir = await mkdtemp(join(tmpdir(), 'dxgraph-notes-latency-host-'));
try {
  const config = loadConfig(env);
  if (!a['skip-build']) {
    const s = await buildLatencyKg({ config, ddxplusDir: a.ddxplus!, notesPath: a['kg-notes'] || null });
    log(`KG built (DDXPlus codes${a['kg-notes'] ? ' + labelled notes' : ''}) in ${s.toFixed(1)} s`);
  }
  const server = a['in-process']
    ? await startServer({ config, logger: createLogger({ level: 'warn' }), host: '127.0.0.1', port: 0 }).then((s) => ({ url: s.url, stop: () => s.close({ drainMs: 100 }) }))
    : await startServeProcess(env, hostDir);
  try {
    const post = async (text: string) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/v1/diagnose`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text, options: { reasoner: 'evidence' } }) });
      const body = (await res.json()) as { error?: { code: string; message: string }; differential?: unknown[]; trace?: { findings: unknown[]; matches: unknown[]; timingsMs: Record<string, number> } };
      return { ms: performance.now() - t0, status: res.status, body };
    };
    for (const n of notes.slice(0, Number(a.warmup))) await post(n.text);
    const rows: { chars: number; ms: number; findings: number; matched: number }[] = [];
    const refused = new Map<string, number>();
    const stages: Record<string, number[]> = {};
    const outputs: string[] = [];
    for (const [i, n] of asked.entries()) {
      const r = await post(n.text);
      if (a.outputs) outputs.push(JSON.stringify(r.status === 200 ? { id: n.id, findings: r.body.trace!.findings, matches: r.body.trace!.matches, differential: r.body.differential!.slice(0, 10) } : { id: n.id, status: r.status, error: r.body.error }));
      if (r.status !== 200) {
        // The kind of error, never the note: numbers masked so one kind counts once.
        const kind = `${r.status} ${r.body.error?.code ?? '?'}: ${(r.body.error?.message ?? '').replace(/\d[\d,.]*/g, '#')}`;
        refused.set(kind, (refused.get(kind) ?? 0) + 1);
        continue;
      }
      const t = r.body.trace!;
      rows.push({ chars: n.text.length, ms: r.ms, findings: t.findings.length, matched: new Set((t.matches as { findingIndex: number }[]).map((m) => m.findingIndex)).size });
      for (const [k, v] of Object.entries(t.timingsMs)) (stages[k] ??= []).push(v);
      if ((i + 1) % 250 === 0) log(`${i + 1} / ${asked.length}`);
    }
    const report = summary(rows, refused, stages, asked.length);
    process.stdout.write(report.text);
    if (a.json) await writeFile(a.json, JSON.stringify(report.figures, null, 2));
    if (a.outputs) await writeFile(a.outputs, `${outputs.join('\n')}\n`);
  } finally {
    await server.stop();
  }
} finally {
  await neo.stop();
  await rm(hostDir, { recursive: true, force: true });
  if (!a['data-dir']) await rm(dataDir, { recursive: true, force: true });
}

function summary(rows: { chars: number; ms: number; findings: number; matched: number }[], refused: Map<string, number>, stages: Record<string, number[]>, asked: number) {
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const pp = (xs: number[]) => ({ n: xs.length, p50: r1(percentile(xs, 0.5)), p99: r1(percentile(xs, 0.99)), max: r1(Math.max(0, ...xs)) });
  const mid = rows.filter((r) => r.chars >= 4000 && r.chars <= 8000);
  const figures = {
    asked, answered: rows.length, refused: asked - rows.length, refusedKinds: Object.fromEntries(refused),
    latencyMs: pp(rows.map((r) => r.ms)), latencyMs4to8k: pp(mid.map((r) => r.ms)),
    findingsPerNote: pp(rows.map((r) => r.findings)), findingsMatchedPerNote: pp(rows.map((r) => r.matched)),
    stagesMs: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, pp(v)])),
  };
  const line = (name: string, p: { n: number; p50: number; p99: number; max: number }) => `| ${name} | ${p.n} | ${p.p50} | ${p.p99} | ${p.max} |\n`;
  let text = `\n${asked} notes posted, ${rows.length} answered, ${figures.refused} refused\n`;
  for (const [k, c] of refused) text += `  refused ${c}: ${k}\n`;
  text += '\n| figure | n | p50 | p99 | max |\n| --- | --- | --- | --- | --- |\n';
  text += line('latency ms, all notes', figures.latencyMs) + line('latency ms, notes of 4-8k chars', figures.latencyMs4to8k);
  text += line('findings read per note', figures.findingsPerNote) + line('findings matched per note', figures.findingsMatchedPerNote);
  for (const [k, p] of Object.entries(figures.stagesMs)) text += line(`stage ${k} ms`, p);
  return { text, figures };
}
