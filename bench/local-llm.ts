/**
 * Local-LLM bench (issue 27): DXGRAPH_LLM=local (node-llama-cpp, default SmolLM2-135M-Instruct
 * Q4_1 re-stored as Q8_0 by `npm run setup`) through the build's LLM stages and the LLM reasoner.
 *   1. `dxgraph build --hierarchy llm` on the records of a few diseases (--build-diseases): build
 *      time, time per LLM stage, calls, ms per call;
 *   2. the full shipped sample built without LLM stages, then free-text vignettes (an evenly
 *      spread subset of --vignettes, --limit) through the evidence reasoner and the LLM reasoner:
 *      fallback rate, first diagnosis outside the KG's candidates, top-1 of both, latency;
 *   3. prompt and reply tokens per second, peak RSS of this process (model included).
 * Not in the default `npm run bench` (minutes per handful of vignettes on 2 CPUs): run it alone or
 * with `npm run bench -- --llm-local`.
 *
 *   node --import tsx bench/local-llm.ts --limit 12 --json local-llm.json
 *   DXGRAPH_LLM_MODEL=/models/qwen2.5-0.5b-instruct-q4_k_m.gguf node --import tsx bench/local-llm.ts
 *
 * Without --neo4j-uri it starts its own Neo4j (free ports, deleted afterwards); with one, that
 * server's database is WIPED.
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chatModelLabel, disposeLocalModels } from '../src/adapters/llm/chat-model.js';
import { loadConfig } from '../src/config.js';
import { parseVignettes, readDdxplusVocabulary } from './lib/free-text-set.js';
import { buildPlain, buildWithLlm, runVignettes } from './lib/local-llm-run.js';
import { runReports, type ReportFigures } from './lib/local-llm-reports.js';
import { benchNeo4j } from './lib/neo4j.js';

const { values: a } = parseArgs({
  options: {
    vignettes: { type: 'string', default: 'datasets/vignettes/dev.jsonl' },
    limit: { type: 'string', default: '12' },
    'build-diseases': { type: 'string', default: 'Pneumonia,Bronchitis,Influenza,URTI' },
    ddxplus: { type: 'string', default: 'datasets/ddxplus' },
    'neo4j-uri': { type: 'string' },
    'work-dir': { type: 'string', default: '.dxgraph-bench/local-llm' },
    json: { type: 'string' },
    // Issue 48: vignettes sent over HTTP with the product's defaults (first answer, then the report at its href).
    reports: { type: 'string', default: '6' },
    'reports-only': { type: 'boolean', default: false },
  },
});
const log = (s: string) => process.stderr.write(`[local-llm] ${s}\n`);
const workDir = resolve(a['work-dir']!);
// DXGRAPH_LLM_* from the environment (another GGUF, threads, context), the provider forced to local.
const base = loadConfig({ ...process.env, DXGRAPH_LLM: 'local', DXGRAPH_LLM_TIMEOUT_MS: process.env.DXGRAPH_LLM_TIMEOUT_MS ?? '180000', DXGRAPH_LLM_BUDGET_MS: process.env.DXGRAPH_LLM_BUDGET_MS ?? '240000' });
const vocab = await readDdxplusVocabulary(a.ddxplus!);
const all = parseVignettes(await readFile(a.vignettes!, 'utf8'), vocab, a.vignettes!);
const limit = Math.min(Number(a.limit), all.length);
const picked = Array.from({ length: limit }, (_, i) => all[Math.floor((i * all.length) / limit)]!);

const neo = await benchNeo4j({ uri: a['neo4j-uri'] ?? null });
log(`neo4j ${neo.uri}${neo.dedicated ? ' (dedicated)' : ' (given: WIPED)'}; model ${chatModelLabel(base.llm)}, ${base.llm.local!.threads} thread(s), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const cfg = (dir: string, c = base) => ({ ...c, neo4j: { ...c.neo4j, uri: neo.uri, ...(neo.dedicated ? { password: '' } : {}) }, dataDir: join(workDir, dir) });
// The report phase runs with the product's defaults for a local model (LOCAL_LLM_DEFAULTS), whatever the bench raised above.
const product = loadConfig({ ...process.env, DXGRAPH_LLM: 'local' });
const reportLine = (r: ReportFigures) =>
  `reports over HTTP (${r.n} vignettes, default timeout ${product.llm.timeoutMs / 1000} s, budget ${product.limits!.llmBudget.wallMs / 1000} s): first answer p50 ${r.firstMs.p50.toFixed(0)} ms, max ${r.firstMs.max.toFixed(0)} ms; report p50 ${(r.reportMs.p50 / 1000).toFixed(1)} s, max ${(r.reportMs.max / 1000).toFixed(1)} s; done ${r.done}, degraded ${r.degraded}, cut mid-sentence ${r.cut}, empty narrative ${r.emptyNarrative}, with treatment advice or a dose ${r.advice}\n  model: ${r.model.calls} calls, ${(r.model.promptTokens / Math.max(1, r.model.calls)).toFixed(0)} prompt + ${(r.model.replyTokens / Math.max(1, r.model.calls)).toFixed(0)} reply tokens per call, CPU ${(r.model.cpuSeconds / Math.max(1, r.n)).toFixed(1)} s per report`;
if (a['reports-only']) {
  try {
    const plainSeconds = await buildPlain(cfg('full'), a.ddxplus!);
    log(`full sample built without LLM stages in ${plainSeconds.toFixed(1)} s`);
    const r = await runReports(cfg('full', product), picked.slice(0, Number(a.reports)), log);
    process.stdout.write(`local LLM bench (reports only): ${chatModelLabel(base.llm)}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n${reportLine(r)}\n`);
    if (a.json) await writeFile(a.json, JSON.stringify({ reports: r }, null, 2));
  } finally {
    await disposeLocalModels();
    await neo.stop();
  }
  process.exit(0);
}
try {
  const diseases = new Set(a['build-diseases']!.split(',').map((s) => s.trim()).filter(Boolean));
  const stages = await buildWithLlm(cfg('llm-build'), a.ddxplus!, diseases);
  log(stages.error ? `build with LLM stages FAILED: ${stages.error}` : `build with LLM stages on ${diseases.size} diseases: ${stages.seconds!.toFixed(1)} s, ${stages.calls} calls`);
  const plainSeconds = await buildPlain(cfg('full'), a.ddxplus!);
  log(`full sample built without LLM stages in ${plainSeconds.toFixed(1)} s; ${picked.length} vignettes next`);
  const v = await runVignettes(cfg('full'), picked, log);
  const reports = Number(a.reports) > 0 ? await runReports(cfg('full', product), picked.slice(0, Number(a.reports)), log) : null;
  const u = [stages.usage, v.usage];
  const total = (k: 'calls' | 'inputTokens' | 'outputTokens' | 'generationMs' | 'promptMs' | 'truncated') => u.reduce((s, x) => s + x[k], 0);
  const usage = { calls: total('calls'), inputTokens: total('inputTokens'), outputTokens: total('outputTokens') };
  const report = {
    model: chatModelLabel(base.llm), threads: base.llm.local!.threads, cpus: os.cpus().length, loadAverage: os.loadavg(),
    build: { ...stages, usage: undefined, plainFullSampleSeconds: plainSeconds },
    vignettes: { set: a.vignettes, ...v, usage: undefined },
    tokens: {
      ...usage,
      // Prompt evaluation = time to the first reply token; the rest of a call is the reply (grammar-constrained sampling included).
      promptTokensPerSecond: usage.inputTokens / (total('promptMs') / 1000),
      replyTokensPerSecond: usage.outputTokens / ((total('generationMs') - total('promptMs')) / 1000),
      replyTokensPerCall: usage.outputTokens / Math.max(1, usage.calls),
      promptTokensPerCall: usage.inputTokens / Math.max(1, usage.calls),
      truncated: total('truncated'),
    },
    reports,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
  process.stdout.write([
    `local LLM bench: ${report.model}, ${report.threads} thread(s) on ${report.cpus} CPUs (load average at the end ${report.loadAverage.map((x) => x.toFixed(1)).join(' ')})`,
    `build --hierarchy llm on ${stages.diseases} diseases: ${stages.error ? `FAILED (${stages.error})` : `${stages.seconds!.toFixed(1)} s`}, ${stages.calls} LLM calls, ${stages.msPerCall === null ? 'n/a' : (stages.msPerCall / 1000).toFixed(1)} s per call; stages ${Object.entries(stages.stageMs).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
    `vignettes (${v.n} of ${a.vignettes}): fallback ${pct(v.fallbackRate)}, first dx outside the KG candidates ${pct(v.outsideCandidatesRate)}, top-1 LLM ${pct(v.top1.llm)} vs evidence ${pct(v.top1.evidence)}`,
    `diagnose with the LLM: p50 ${(v.diagnoseMs.p50 / 1000).toFixed(1)} s, max ${(v.diagnoseMs.max / 1000).toFixed(1)} s (reason stage p50 ${(v.reasonMs.p50 / 1000).toFixed(1)} s)`,
    `tokens: ${usage.calls} calls, ${report.tokens.promptTokensPerCall.toFixed(0)} prompt + ${report.tokens.replyTokensPerCall.toFixed(0)} reply tokens per call, prompt ${report.tokens.promptTokensPerSecond.toFixed(0)} tokens/s, reply ${report.tokens.replyTokensPerSecond.toFixed(1)} tokens/s, ${report.tokens.truncated} replies cut at max tokens`,
    ...(reports ? [reportLine(reports)] : []),
    `peak RSS ${report.peakRssMb.toFixed(0)} MB`,
  ].join('\n') + '\n');
  if (a.json) await writeFile(a.json, JSON.stringify(report, null, 2));
} finally {
  await disposeLocalModels();
  await neo.stop();
}
