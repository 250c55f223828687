/**
 * `npm run bench`: performance and scale figures of dxgraph, measured side by side in one run.
 * For each size (--sizes, default 10000,100000): a generated DDXPlus-like dataset
 * (bench/scale/generate.ts), the real build into Neo4j + FAISS (stage timings, load rate,
 * peak RSS), the real server on 127.0.0.1:0 under a bounded HTTP load (p50/p99, req/s),
 * FAISS build/query/recall, and the reference-path ratio. --faiss-only 1000000 adds the
 * FAISS part alone at that size (no Neo4j). Then the free-text phase (bench/free-text.ts, issue 17):
 * the vignettes of datasets/vignettes through dxgraph and a TF-IDF kNN baseline, side by side
 * (--skip-free-text leaves it out). Each phase runs in its own process. Then the vocabulary-scale
 * phase (issue 29, bench/scale/vocab-phase.ts): in-memory query stages on generated KGs of
 * --vocab-sizes DxFxN beside the DDXPlus sample (--vocab-sizes '' leaves it out), and the same
 * served: --vocab-served DxFxN built from a generated CSV through the CLI and asked over HTTP
 * (bench/scale/vocab-served.ts; --vocab-served '' leaves it out). --llm-local adds
 * the local-LLM phase last (bench/local-llm.ts, issue 27: minutes per handful of vignettes on CPU,
 * so not by default; --llm-local-limit vignettes, default 12).
 *
 * The Neo4j it builds into is wiped before every size: by default a dedicated server
 * started for the run (own instance dir, free ports, deleted afterwards); with
 * --neo4j-uri, that server's whole database is DELETED and replaced. See docs/benchmarks.md.
 *
 *   npm run bench -- --quick                 # 10k only, short load: a few minutes
 *   npm run bench -- --sizes 10000,100000 --json bench-out.json
 *   npm run bench -- --sizes 10000 --faiss-only 1000000
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './scale/generate.js';
import { forkPhase } from './lib/fork-phase.js';
import { loadNotesSet, NOTES_CORPORA, runNotesBench } from './lib/notes-kg-run.js';
import { runLoad } from './load.js';
import { calibrate } from './lib/calibrate.js';
import { benchNeo4j } from './lib/neo4j.js';
import type { BenchReport, SizeReport } from './lib/report-types.js';
import { formatTable } from './lib/table.js';
import { checkTargets } from './lib/targets.js';
import { runFreeTextPhase } from './lib/free-text-phase.js';
import type { FreeTextReport } from './lib/free-text-run.js';
import { formatFreeText, freeTextTargets } from './lib/free-text-table.js';
import { runVocabPhase, vocabTable, type VocabRow } from './scale/vocab-phase.js';
import { vocabServed, vocabServedTable, type VocabServedRow } from './scale/vocab-served.js';

const { values: a } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    'faiss-only': { type: 'string', default: '' },
    'faiss-kinds': { type: 'string' },
    'faiss-only-kinds': { type: 'string', default: 'hnsw16' },
    'records-in-graph-upto': { type: 'string' },
    'gate-examples': { type: 'string' },
    duration: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
    queries: { type: 'string' },
    'reference-queries': { type: 'string' },
    'batch-size': { type: 'string', default: '5000' },
    'neo4j-uri': { type: 'string' },
    'work-dir': { type: 'string', default: '.dxgraph-bench' },
    'skip-free-text': { type: 'boolean', default: false },
    'skip-notes': { type: 'boolean', default: false },
    'llm-local': { type: 'boolean', default: false },
    'llm-local-limit': { type: 'string', default: '12' },
    'vocab-sizes': { type: 'string', default: '1000x5000x100000,5000x20000x100000' },
    // Served vocabulary scale: each size built through the CLI into its own Neo4j and asked over HTTP (minutes per size).
    'vocab-served': { type: 'string', default: '1000x5000x100000' },
    json: { type: 'string' },
  },
});
const quick = a.quick!;
const opts = {
  // `--sizes ''`: no served sizes (e.g. a --faiss-only run alone).
  sizes: (a.sizes ?? (quick ? '10000' : '10000,100000')).split(',').filter(Boolean).map(Number),
  faissOnly: a['faiss-only'] ? a['faiss-only'].split(',').map(Number) : [],
  faissKinds: (a['faiss-kinds'] ?? (quick ? 'flat,hnsw32' : 'flat,ivf,hnsw32')).split(',').filter(Boolean),
  faissOnlyKinds: a['faiss-only-kinds']!.split(',').filter(Boolean),
  // :Record nodes make the load rate meaningful (~20 relationships per record): sizes up to
  // this one also run a build with every record in the graph (phase-build.ts).
  recordsInGraphUpto: Number(a['records-in-graph-upto'] ?? (quick ? 0 : 100_000)),
  // Quick mode skips the gate stage's training (a fixed few hundred examples at any size).
  gateExamples: a['gate-examples'] !== undefined ? Number(a['gate-examples']) : quick ? 0 : null,
  durationSeconds: Number(a.duration ?? (quick ? 10 : 30)),
  concurrency: Number(a.concurrency),
  queries: Number(a.queries ?? (quick ? 100 : 200)),
  referenceQueries: Number(a['reference-queries'] ?? (quick ? 5 : 10)),
  batchSize: Number(a['batch-size']),
  workDir: resolve(a['work-dir']!),
};
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);
const t0 = performance.now();
const loadAvgStart = os.loadavg();
const calibration = calibrate();
log(`machine: ${os.cpus().length} cpus, load average ${loadAvgStart.map((x) => x.toFixed(1)).join(' ')}, JS ${calibration.jsMflops} MFLOP/s, CPU share ${calibration.cpuShare}`);

const neo = opts.sizes.length > 0 ? await benchNeo4j({ uri: a['neo4j-uri'] ?? null }) : null;
const sizes: SizeReport[] = [];
let freeText: FreeTextReport | null = null;
let freeTextError: string | null = null;
// Figures so far go to --json after every size: a failure later in a long run keeps them.
const savePartial = async () => {
  if (a.json) await writeFile(a.json, JSON.stringify({ partial: true, options: opts, sizes }, null, 2));
};
try {
  if (neo) log(`neo4j ${neo.uri} (${neo.dedicated ? `dedicated, started in ${(neo.startMs / 1000).toFixed(1)} s` : 'given: its database is wiped'})`);
  for (const size of opts.sizes) {
    const ds = await generate({ size, outDir: join(opts.workDir, 'data', `ddxplus-${size}`) });
    log(`${size}: dataset ${ds.reused ? 'reused' : 'generated'} (${ds.dir}); building`);
    const dataDir = join(opts.workDir, 'dxgraph', String(size));
    let build: SizeReport['build'];
    try {
      build = await forkPhase<SizeReport['build']>({ phase: 'build', input: { datasetDir: ds.dir, dataDir, neo4jUri: neo!.uri, neo4jPid: neo!.pid, recordsInGraph: size <= opts.recordsInGraphUpto, coldStart: neo!.dedicated && size === opts.sizes[0], batchSize: opts.batchSize, gateExamples: opts.gateExamples } });
    } catch (e) {
      log(`${size}: build failed: ${(e as Error).message}`);
      continue;
    }
    log(`${size}: built in ${(build.totalMs / 1000).toFixed(1)} s; serving`);
    const report: SizeReport = { size, build, latency: null, load: null, serve: null, error: null };
    sizes.push(report);
    try {
      report.serve = await forkPhase<NonNullable<SizeReport['serve']>>(
        { phase: 'serve', input: { datasetDir: ds.dir, dataDir, neo4jUri: neo!.uri, queriesDir: join(opts.workDir, 'data', 'queries'), queryCount: opts.queries, referenceQueries: opts.referenceQueries, records: build.records, faissKinds: opts.faissKinds } },
        async ({ url, texts }) => {
          // bench/load.ts's client (autocannon): a short warm-up, then the measured window.
          // Latency is measured with one client (a request's own time, no queueing behind
          // others); throughput with `concurrency` clients (the server saturated), whose
          // latencies are then mostly queueing (≈ concurrency / throughput) and shown beside.
          await runLoad({ url, connections: opts.concurrency, durationSeconds: 2, texts });
          const latency = await runLoad({ url, connections: 1, durationSeconds: Math.max(5, Math.round(opts.durationSeconds / 2)), texts });
          report.latency = latency;
          const load = await runLoad({ url, connections: opts.concurrency, durationSeconds: opts.durationSeconds, texts });
          report.load = load;
          log(`${size}: 1 client p50 ${latency.latency.p50} ms, p99 ${latency.latency.p99} ms; ${opts.concurrency} clients ${load.throughput.toFixed(1)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms; FAISS + reference path`);
        },
      );
    } catch (e) {
      report.error = (e as Error).message;
      log(`${size}: ${report.error}`);
    }
    await savePartial();
  }
  if (!a['skip-free-text']) {
    // After the sizes: the vignette build replaces the bench server's KG (or, with no sizes, the phase starts its own Neo4j).
    log('free text: vignettes through dxgraph and the TF-IDF kNN baseline (bench/free-text.ts)');
    try {
      freeText = await runFreeTextPhase({ neo4jUri: neo?.uri ?? null, workDir: opts.workDir });
    } catch (e) {
      freeTextError = (e as Error).message;
      log(`free text: ${freeTextError}`);
    }
  }
} finally {
  await neo?.stop();
}
const faissOnly: BenchReport['faissOnly'] = [];
for (const size of opts.faissOnly) {
  const ds = await generate({ size, outDir: join(opts.workDir, 'data', `ddxplus-${size}`) });
  log(`${size}: FAISS only (${opts.faissOnlyKinds.join(', ')})`);
  const result = await forkPhase<BenchReport['faissOnly'][number]['result']>({ phase: 'faiss', input: { datasetDir: ds.dir, queriesDir: join(opts.workDir, 'data', 'queries'), queryCount: opts.queries, records: size, kinds: opts.faissOnlyKinds } }, undefined, { heapMb: 6144 });
  faissOnly.push({ size, result });
}
const base = {
  startedAt: new Date(Date.now() - (performance.now() - t0)).toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', memGb: Math.round(os.totalmem() / 2 ** 30), loadAvgStart, loadAvgEnd: os.loadavg(), node: process.version, calibration },
  options: opts, neo4j: { dedicated: neo?.dedicated ?? false, startMs: neo?.startMs ?? 0 }, sizes, faissOnly,
};
const report: BenchReport & { freeText: FreeTextReport | null; freeTextError: string | null } = {
  ...base, freeText, freeTextError, targets: [...checkTargets(base), ...freeTextTargets(freeText)], totalSeconds: Math.round((performance.now() - t0) / 1000),
};
process.stdout.write(`${formatTable(report)}\n${freeText ? `\n${formatFreeText(freeText)}\n` : ''}\ntargets:\n`);
for (const t of report.targets) process.stdout.write(`  ${t.met === null ? '·' : t.met ? '✓' : '✗'} ${t.name.padEnd(34)} ${t.target.padEnd(14)} ${t.measured}\n`);
process.stdout.write(`(load average ${loadAvgStart.map((x) => x.toFixed(1)).join(' ')} -> ${report.machine.loadAvgEnd.map((x) => x.toFixed(1)).join(' ')}; ${report.totalSeconds} s total)\n`);
// Notes KGs (issue 24): a KG from notes alone per corpus, beside TF-IDF kNN and centroid on the same notes.
const notes: string[] = [];
if (!a['skip-notes']) {
  for (const corpus of NOTES_CORPORA) {
    try {
      notes.push((await runNotesBench({ train: await Promise.all(corpus.train.map(loadNotesSet)), tests: await Promise.all(corpus.test.map(loadNotesSet)), minPatients: 5 }, log)).table);
    } catch (e) {
      notes.push(`notes KG (${corpus.train.join(', ')}): ${(e as Error).message}\n`);
    }
  }
  process.stdout.write(`\n${notes.join('\n')}`);
}
// Vocabulary scale (issue 29): 49 vs 1,000 vs 5,000 diagnoses, stage costs side by side.
let vocab: VocabRow[] = [];
const vocabSizes = a['vocab-sizes']!.split(',').filter(Boolean);
if (vocabSizes.length > 0) {
  log(`vocabulary scale: ${vocabSizes.join(', ')} (bench/scale/vocab-phase.ts)`);
  vocab = await runVocabPhase(vocabSizes, 100);
  process.stdout.write(`\nvocabulary scale (in memory, one client; ms per query):\n${vocabTable(vocab)}\n`);
}
const vocabServedRows: VocabServedRow[] = [];
for (const spec of a['vocab-served']!.split(',').filter(Boolean)) {
  const [diseases, features, records] = spec.split('x').map(Number) as [number, number, number];
  log(`vocabulary scale served: ${spec} (bench/scale/vocab-served.ts: CSV → dxgraph build → dxgraph serve)`);
  vocabServedRows.push(await vocabServed({ diseases, features, records, queries: 300, turns: 100 }, log));
}
if (vocabServedRows.length > 0) process.stdout.write(`\nvocabulary scale, served (one client over HTTP, offline reasoner):\n${vocabServedTable(vocabServedRows)}\n`);
if (a.json) await writeFile(a.json, JSON.stringify({ ...report, notes, vocab, vocabServed: vocabServedRows }, null, 2));
if (a['llm-local']) {
  // Issue 27: the in-process LLM through the build's LLM stages and the LLM reasoner, in its own process with its own Neo4j.
  log('local LLM: build stages and vignettes through the LLM reasoner (bench/local-llm.ts)');
  const { spawn } = await import('node:child_process');
  const { NEO4J_URI: _ignored, ...env } = process.env;
  const args = ['--import', 'tsx', 'bench/local-llm.ts', '--limit', a['llm-local-limit']!, '--work-dir', join(opts.workDir, 'local-llm'), ...(a.json ? ['--json', a.json.replace(/(\.json)?$/, '.local-llm.json')] : [])];
  await new Promise<void>((res, rej) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    child.on('error', rej);
    child.on('exit', (code) => (code === 0 ? res() : rej(new Error(`local-LLM phase exited with code ${code}`))));
  });
}
