/**
 * Issue 48 item 1: a build made with no calibration flags calibrates itself (src/calibration/cross-fit.ts).
 * This bench makes that build as the README's by-hand steps do (`dxgraph split` 60/40 seed 1 of the
 * shipped DDXPlus sample, then `dxgraph build --source ddxplus:<train>`, child processes), then scores:
 *  - the blind vignette sets (test, test-b, test-c: written by others, never fitted or tuned on),
 *    pooled, through the served diagnose path, calibrated and not (the same build, its calibration
 *    ignored): ECE with its bootstrap interval, truth under 1% or unlisted, Brier, log-loss, AUROC of
 *    the top-1 probability, top-1 / top-3;
 *  - saves the fit's raw scores (work/fit-samples.json) and the blind cases' on the served KG
 *    (work/blind-samples.json), numbers only, so bench/calibration-tail.ts can refit without a build;
 *  - with --eval, the held-out DDXPlus patients at 0 and 3 questions (`dxgraph eval --protocol
 *    interactive`), on the build and on a copy of its data dir without the calibration.
 * Prints the issue's goals as met or not.
 *
 *   node --import tsx bench/default-calibration.ts [--eval] [--limit 200] [--work .dxgraph-bench/default-calibration] [--calibration-folds 3] [--calibration-share 0.1]
 *   NEO4J_URI=bolt://… node --import tsx bench/default-calibration.ts --skip-build --work DIR   # the build already there
 *
 * Without NEO4J_URI it starts its own Neo4j (free ports, deleted afterwards); with one, that database is replaced.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { createEmbedder } from '../src/adapters/embeddings/index.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { readTextCases } from '../src/calibration/text-cases.js';
import { loadConfig } from '../src/config.js';
import { manifestPath } from '../src/domain/artifacts.js';
import { calibrationMetrics } from '../src/eval/calibration-metrics.js';
import { readManifest } from '../src/query/load-snapshot.js';
import { openQueryService } from '../src/query/query-service.js';
import { blindSamples, formatGoals, heldOutSamples, scoreBlindSets } from './lib/default-calibration-score.js';
import type { NormalizedRecord } from '../src/domain/record.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';
import { benchNeo4j } from './lib/neo4j.js';

const run = promisify(execFile);
const { values: a } = parseArgs({
  options: {
    work: { type: 'string', default: '.dxgraph-bench/default-calibration' },
    blind: { type: 'string', default: 'datasets/vignettes/test.jsonl,datasets/vignettes/test-b.jsonl,datasets/vignettes/test-c.jsonl' },
    'skip-build': { type: 'boolean', default: false },
    eval: { type: 'boolean', default: false },
    'skip-text': { type: 'boolean', default: false },
    limit: { type: 'string' },
    json: { type: 'string' },
    // Not a default build: more held-out shares (src/calibration/cross-fit.ts), to measure what they buy.
    'calibration-folds': { type: 'string' },
    'calibration-share': { type: 'string' },
  },
});
const log = (s: string) => process.stderr.write(`[default-calibration] ${s}\n`);
const work = resolve(a.work!);
const dataDir = join(work, 'data');
const neo = await benchNeo4j({ uri: process.env.NEO4J_URI ?? null });
const env = { ...process.env, NEO4J_URI: neo.uri, ...(neo.dedicated ? { NEO4J_PASSWORD: '' } : {}), DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none' };
const dx = async (args: string[], dir = dataDir) => (await run(process.execPath, ['bin/dxgraph.js', ...args], { env: { ...env, DXGRAPH_DATA_DIR: dir }, maxBuffer: 64 << 20 })).stdout;
try {
  let buildSeconds: number | null = null;
  let report = '';
  if (!a['skip-build']) {
    await rm(work, { recursive: true, force: true });
    await dx(['split', '--source', 'ddxplus:datasets/ddxplus', '--test-fraction', '0.4', '--seed', '1', '--out-dir', join(work, 'split')]);
    const t0 = performance.now();
    report = await dx(['build', '--source', `ddxplus:${join(work, 'split', 'train')}`, '--calibration-samples', join(work, 'fit-samples.json'), ...(a['calibration-folds'] ? ['--calibration-folds', a['calibration-folds']] : []), ...(a['calibration-share'] ? ['--calibration-share', a['calibration-share']] : [])]);
    buildSeconds = (performance.now() - t0) / 1000;
    log(`build (no calibration flags) in ${buildSeconds.toFixed(1)} s`);
  }
  const calLines = report.split('\n').filter((l, i, all) => l.startsWith('calibration:') || (i > 0 && all.slice(0, i).some((x) => x.startsWith('calibration:')) && l.startsWith('  ')));
  const base = loadConfig();
  const config = { ...base, neo4j: { ...base.neo4j, uri: neo.uri, ...(neo.dedicated ? { password: '' } : {}) }, dataDir, llm: { ...base.llm, enabled: false } };
  const out: Record<string, unknown> = { buildSeconds, calibration: calLines };
  process.stdout.write(`${calLines.join('\n')}\n`);
  if (!a['skip-text']) {
    const graph = new GraphStore(config.neo4j);
    await graph.connect();
    try {
      const open = (calibrated: boolean) => openQueryService({ graph, dataDir, embedder: createEmbedder(config), calibrated, ...(config.query?.recordRetrieval ? { recordRetrieval: config.query.recordRetrieval } : {}) });
      const cases = (await Promise.all(a.blind!.split(',').map((p) => readTextCases(p.trim())))).flat();
      const blind = await scoreBlindSets({ before: await open(false), after: await open(true), cases, log });
      out.blind = { before: blind.before, after: blind.after, top: blind.top, top1Brier: blind.top1Brier };
      // The blind cases' raw scores on the served KG (numbers only), for refit experiments (bench/calibration-tail.ts).
      await writeFile(join(work, 'blind-samples.json'), await blindSamples({ graph, dataDir, embedder: createEmbedder(config), cases }));
      process.stdout.write(`\n${formatGoals(blind)}\n`);
    } finally {
      await graph.close();
    }
  }
  if (a.eval) {
    // The same build without its calibration: a copy of the data dir whose manifest names none.
    const rawDir = join(work, 'data-uncalibrated');
    await rm(rawDir, { recursive: true, force: true });
    await cp(await realpath(dataDir), rawDir, { recursive: true, dereference: true });
    const m = await readManifest(rawDir);
    const { calibration: _c, ...rest } = m;
    await writeFile(manifestPath(rawDir, m.buildId), JSON.stringify(rest, null, 2));
    const evalAt = async (dir: string, name: string) => {
      const json = join(work, `eval-${name}.json`);
      await dx(['eval', '--test', `ddxplus:${join(work, 'split', 'test')}`, '--protocol', 'interactive', '--questions', '0,3', '--json', json, ...(a.limit ? ['--limit', a.limit] : [])], dir);
      return JSON.parse(await readFile(json, 'utf8'));
    };
    // The held-out patients' raw scores on the served KG (numbers only), per coded variant: @0 refits in seconds (bench/calibration-tail.ts).
    const source = await openSource(parseSourceSpec(`ddxplus:${join(work, 'split', 'test')}`), { strict: false });
    const records: NormalizedRecord[] = [];
    try {
      for await (const r of source.records()) records.push(r);
    } finally {
      await source.close();
    }
    const graph = new GraphStore(config.neo4j);
    await graph.connect();
    try {
      const files = await heldOutSamples({ graph, dataDir, embedder: createEmbedder(config), records });
      for (const [variant, json] of Object.entries(files)) await writeFile(join(work, `held-out-${variant}-samples.json`), json);
    } finally {
      await graph.close();
    }
    const after = await evalAt(dataDir, 'calibrated');
    const before = await evalAt(rawDir, 'uncalibrated');
    const lines = interactiveLines(before, after);
    out.interactive = lines;
    process.stdout.write(`\nDDXPlus held-out patients, interactive protocol (before → after; goal ECE ≤ 0.05):\n${lines.join('\n')}\n`);
  }
  if (a.json) await writeFile(a.json, JSON.stringify(out, null, 2));
} finally {
  await neo.stop();
}

function interactiveLines(before: any, after: any): string[] {
  const rows: string[] = [];
  const at = (j: any) => (j.calibration?.interactive ?? {}) as Record<string, ReturnType<typeof calibrationMetrics>>;
  for (const [q, m] of Object.entries(at(after))) {
    const b = at(before)[q];
    if (!m || !b) continue;
    const f = (x: number) => x.toFixed(3);
    rows.push(`  @${q}: n ${m.n}  ECE ${f(b.ece)} → ${f(m.ece)} [${f(m.ci95.ece[0])}, ${f(m.ci95.ece[1])}] ${m.ece <= 0.05 ? '✓' : '✗'}  Brier ${f(b.brier)} → ${f(m.brier)}  log-loss ${f(b.log_loss)} → ${f(m.log_loss)}  AUROC ${b.auroc === null ? '—' : f(b.auroc)} → ${m.auroc === null ? '—' : f(m.auroc)}  truth < 1% ${(100 * b.truth_under_1pct).toFixed(1)} → ${(100 * m.truth_under_1pct).toFixed(1)}%`);
  }
  return rows;
}
