/**
 * The information-density gate in the real pipeline (issue 7 closing figures):
 *   1. build the KG from the TRAIN part of the DDXPlus sample (runBuild: Neo4j + FAISS + gate stage);
 *   2. open the query service with the gate on (build-calibrated thresholds) and off;
 *   3. for every held-out TEST record: its full text rendering and its initial-evidence-only
 *      rendering (age, sex, the initial complaint) through diagnose() — gated, always-retrieve,
 *      and forced direct (θ1 = 0) to know whether the direct answer would be right.
 * Prints and (--out) writes: classifier per-label accuracy on held-out masking labels; share
 * answered directly; accuracy gated vs always-retrieve; latency; AUROC of I_norm for the direct
 * answer being correct; I_norm on full vs initial-only inputs (mean, quantiles, AUROC).
 *
 * Usage (overwrites the graph at NEO4J_URI: use a scratch Neo4j):
 *   NEO4J_URI=bolt://127.0.0.1:7687 npx tsx bench/gate-pipeline.ts [--data-dir DIR] [--limit N] [--sample 300] [--find 40] [--out FILE]
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HashedEmbedder } from '../src/adapters/embeddings/hashed-embedder.js';
import { FaissVectorIndex } from '../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { loadConfig } from '../src/config.js';
import type { NormalizedRecord } from '../src/domain/record.js';
import type { DiagnoseResult } from '../src/query/contracts.js';
import { diagnosisToDisease } from '../src/query/evaluate-ask.js';
import { openQueryService, textInput, type QueryService } from '../src/query/query-service.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';
import { splitFilter } from '../src/sources/split.js';
import { runBuild } from '../kg-build/pipeline.js';
import { auroc, initialEvidenceText, quantiles } from './gate-figures.js';

const { values: a } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    source: { type: 'string', default: 'ddxplus:datasets/ddxplus' },
    limit: { type: 'string', default: '100000' },
    sample: { type: 'string', default: '300' },
    find: { type: 'string', default: '40' },
    out: { type: 'string' },
  },
});
const SPLIT = { seed: 1, testFraction: 0.4 };
const config = loadConfig();
const dataDir = a['data-dir'] ?? (await mkdtemp(join(tmpdir(), 'gate-pipeline-')));
const hashed = new HashedEmbedder();
const embedder = { id: hashed.id, embeddings: hashed };
const graph = new GraphStore(config.neo4j);
await graph.connect();

async function records(part: 'train' | 'test'): Promise<NormalizedRecord[]> {
  const source = await openSource(parseSourceSpec(a.source!), { strict: false });
  const keep = splitFilter({ ...SPLIT, part });
  const out: NormalizedRecord[] = [];
  try {
    for await (const r of source.records()) if (keep(r)) out.push(r);
  } finally {
    await source.close();
  }
  return out;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
try {
  const source = await openSource(parseSourceSpec(a.source!), { strict: false });
  const t0 = performance.now();
  const outcome = await runBuild(
    {
      source, dataDir, include: splitFilter({ ...SPLIT, part: 'train' }),
      params: {
        hierarchy: 'statistical', sizes: { subcategories: 'auto', categories: 'auto' }, cluster: {}, decompose: {}, keyDifferences: {}, index: {},
        batchSize: 5000, recordsInGraph: false, triplesFile: null, split: SPLIT, gate: { maxExamples: Number(a.sample) },
      },
    },
    { graph, embedder, indexFactory: FaissVectorIndex, llm: null },
  ).finally(() => source.close());
  const buildMs = performance.now() - t0;
  const g = outcome.gate!;
  console.log(`build: ${(buildMs / 1000).toFixed(1)} s total, gate stage ${(outcome.timings.gate! / 1000).toFixed(1)} s; stages ${JSON.stringify(outcome.timings)}`);
  console.log(`gate stage parts (ms): ${JSON.stringify(g.timings)}`);
  if (!g.entry) throw new Error(`no gate classifier: ${g.skipped}`);
  const metrics = JSON.parse(await readFile(join(dataDir, 'builds', outcome.buildId, g.entry.metrics), 'utf8'));
  console.log(`annotation: ${JSON.stringify(metrics.annotation)}`);
  const h = metrics.heldOut;
  console.log(`held-out classifier: ${h.sentences} sentences, accuracy ${pct(h.accuracy)} (majority ${pct(h.majorityBaseline)}); ` +
    (['A', 'B', 'C'] as const).map((l) => `${l} ${h.perLabel[l].accuracy === null ? 'n/a' : pct(h.perLabel[l].accuracy)} (n=${h.perLabel[l].support})`).join(', '));
  console.log(`calibrated thresholds: ${JSON.stringify(g.entry.thresholds)}; calibration by kind ${JSON.stringify(g.calibration?.byKind)}`);

  const on: QueryService = await openQueryService({ graph, dataDir, embedder, gate: { mode: 'on', theta1: null, theta2: null } });
  const test = (await records('test')).slice(0, Number(a.limit));
  const gold = diagnosisToDisease(on.snapshot);
  type Row = { kind: 'full' | 'initial'; score: number; decision: string; gatedOk: boolean; retrieveOk: boolean; directOk: boolean; gatedMs: number; retrieveMs: number };
  const rows: Row[] = [];
  const ok = (r: DiagnoseResult, want: string | undefined) => r.differential[0]?.diseaseId === want;
  for (const rec of test) {
    const want = gold.get(rec.diagnosis.toLowerCase());
    for (const [kind, text] of [['full', rec.text], ['initial', initialEvidenceText(rec)]] as const) {
      const gated = await on.diagnose(textInput(text, { reasoner: 'evidence' }));
      const always = await on.diagnose(textInput(text, { reasoner: 'evidence', gate: 'off' }));
      const direct = await on.diagnose(textInput(text, { reasoner: 'evidence', gateThresholds: { theta1: 0, theta2: 0 } }));
      rows.push({
        kind, score: gated.trace.gate!.score, decision: gated.trace.gate!.decision, gatedOk: ok(gated, want), retrieveOk: ok(always, want), directOk: ok(direct, want),
        gatedMs: gated.trace.timingsMs.total!, retrieveMs: always.trace.timingsMs.total!,
      });
    }
  }
  const report: Record<string, unknown> = { buildMs, timings: outcome.timings, annotation: metrics.annotation, heldOut: h, thresholds: g.entry.thresholds, calibration: g.calibration, test: test.length };
  for (const kind of ['full', 'initial', 'both'] as const) {
    const xs = rows.filter((r) => kind === 'both' || r.kind === kind);
    const share = (d: string) => xs.filter((r) => r.decision === d).length / xs.length;
    const acc = (f: (r: Row) => boolean) => xs.filter(f).length / xs.length;
    const directRows = xs.filter((r) => r.decision === 'direct');
    const fig = {
      n: xs.length,
      decisions: { direct: share('direct'), retrieve: share('retrieve'), warn: share('retrieve-warn') },
      accuracyGated: acc((r) => r.gatedOk), accuracyAlwaysRetrieve: acc((r) => r.retrieveOk), accuracyAlwaysDirect: acc((r) => r.directOk),
      accuracyOfDirectDecisions: directRows.length ? directRows.filter((r) => r.gatedOk).length / directRows.length : null,
      meanMsGated: mean(xs.map((r) => r.gatedMs)), meanMsAlwaysRetrieve: mean(xs.map((r) => r.retrieveMs)),
      aurocInormDirectCorrect: auroc(xs.filter((r) => r.directOk).map((r) => r.score), xs.filter((r) => !r.directOk).map((r) => r.score)),
      inorm: { mean: mean(xs.map((r) => r.score)), ...quantiles(xs.map((r) => r.score)) },
    };
    report[kind] = fig;
    console.log(`\n${kind} (${fig.n}): direct ${pct(fig.decisions.direct)}, retrieve ${pct(fig.decisions.retrieve)}, warn ${pct(fig.decisions.warn)}`);
    console.log(`  top-1: gated ${pct(fig.accuracyGated)}, always-retrieve ${pct(fig.accuracyAlwaysRetrieve)}, always-direct ${pct(fig.accuracyAlwaysDirect)}; direct decisions correct ${fig.accuracyOfDirectDecisions === null ? 'n/a' : pct(fig.accuracyOfDirectDecisions)}`);
    console.log(`  latency: gated ${fig.meanMsGated.toFixed(1)} ms, always-retrieve ${fig.meanMsAlwaysRetrieve.toFixed(1)} ms (saved ${pct(1 - fig.meanMsGated / fig.meanMsAlwaysRetrieve)})`);
    console.log(`  AUROC of I_norm for the direct answer being correct: ${fig.aurocInormDirectCorrect.toFixed(3)}`);
    console.log(`  I_norm: mean ${fig.inorm.mean.toFixed(3)}, p10 ${fig.inorm.p10.toFixed(3)}, p25 ${fig.inorm.p25.toFixed(3)}, p50 ${fig.inorm.p50.toFixed(3)}, p75 ${fig.inorm.p75.toFixed(3)}, p90 ${fig.inorm.p90.toFixed(3)}`);
  }
  const sep = auroc(rows.filter((r) => r.kind === 'full').map((r) => r.score), rows.filter((r) => r.kind === 'initial').map((r) => r.score));
  report.aurocFullVsInitial = sep;
  console.log(`\nAUROC of I_norm separating full from initial-only inputs: ${sep.toFixed(3)}`);
  // FIND chunk retrieval vs whole-record retrieval, gate off, on the first --find full renderings.
  const nFind = Math.min(Number(a.find), test.length);
  const modes: Record<string, { ok: number; gold: number; ms: number }> = { record: { ok: 0, gold: 0, ms: 0 }, find: { ok: 0, gold: 0, ms: 0 } };
  for (const rec of test.slice(0, nFind)) {
    const want = gold.get(rec.diagnosis.toLowerCase());
    for (const mode of ['record', 'find'] as const) {
      const r = await on.diagnose(textInput(rec.text, { gate: 'off', retrieval: mode, topK: 5, reasoner: 'evidence' }));
      modes[mode]!.ok += ok(r, want) ? 1 : 0;
      modes[mode]!.gold += r.trace.retrieved.filter((x) => x.diseaseId === want).length / Math.max(1, r.trace.retrieved.length);
      modes[mode]!.ms += r.trace.timingsMs.retrieve!;
    }
  }
  report.retrievalModes = Object.fromEntries(Object.entries(modes).map(([m, x]) => [m, { n: nFind, top1: x.ok / nFind, goldShareOfRetrieved: x.gold / nFind, meanRetrieveMs: x.ms / nFind }]));
  for (const [m, x] of Object.entries(modes)) console.log(`retrieval ${m} (${nFind} full renderings, top-k 5): top-1 ${pct(x.ok / nFind)}, retrieved records of the gold disease ${pct(x.gold / nFind)}, retrieve stage ${(x.ms / nFind).toFixed(1)} ms`);
  if (a.out) await writeFile(a.out, JSON.stringify(report, null, 2) + '\n');
} finally {
  await graph.close();
}
