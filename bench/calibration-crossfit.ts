/**
 * Calibration cross-fit on labelled text sets (issue 26): the evidence reasoner's raw scores of
 * every case of two (or more) sets on the KG already built in --data-dir, then the build's text
 * calibration (src/calibration/fit-temperature.ts) fitted on each set and scored on the others,
 * beside the uncalibrated posterior: how a choice made on one dev set carries to unseen text,
 * without touching a blind set. Metrics as the bench prints them (src/eval/calibration-metrics.ts,
 * the top-10 differential, the unlisted rest spread evenly).
 *
 *   NEO4J_URI=bolt://127.0.0.1:7791 node --import tsx bench/calibration-crossfit.ts --data-dir .dxgraph-bench/free-text \
 *     [--sets datasets/vignettes/dev.jsonl,datasets/vignettes/dev-b.jsonl] [--baseline datasets/vignettes/cal.jsonl]
 *
 * --baseline: also fit on that one set alone and score every other set with it, pooled beside
 * the fits on all the others over the same cases: does calibrating on more sets carry better?
 * The last lines say where the truth ranked against the probability given there (pooled out of set).
 *
 * The KG is used as it is (build it first, e.g. `bench/free-text.ts --held-out '' --calibrate-on ''`).
 * Never give it a blind set.
 */
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbedder } from '../src/adapters/embeddings/index.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { collectSamples, scoreCapture } from '../src/calibration/fit-stage.js';
import { fitCalibrationParams, type CalibrationSample } from '../src/calibration/fit-temperature.js';
import { casesFromText } from '../src/calibration/held-out-cases.js';
import { calibratedPosterior, type KindTemperature } from '../src/calibration/temperature.js';
import { readTextCases } from '../src/calibration/text-cases.js';
import { loadConfig } from '../src/config.js';
import { formatRankLine } from '../src/eval/calibration-html.js';
import { calibrationMetrics, probabilityCase, type ProbabilityCase } from '../src/eval/calibration-metrics.js';
import { truthResolver } from '../src/eval/hierarchy-levels.js';
import { openQueryService } from '../src/query/query-service.js';
import { EvidenceReasoner } from '../src/reasoners/evidence-reasoner.js';
import { LABELLED_VIGNETTE_SETS } from './lib/free-text-set.js';

const { values: a } = parseArgs({ options: { 'data-dir': { type: 'string', default: '.dxgraph-bench/free-text' }, sets: { type: 'string', default: LABELLED_VIGNETTE_SETS.join(',') }, baseline: { type: 'string' }, listed: { type: 'string', default: '10' } } });
const paths = a.sets!.split(',').map((s) => s.trim()).filter(Boolean);
if (paths.length < 2) throw new Error('--sets: at least two labelled sets');
if (a.baseline !== undefined && !paths.includes(a.baseline)) throw new Error(`--baseline: ${a.baseline} is not one of --sets`);
if (paths.some((p) => /(^|\/)test[^/]*\.jsonl$/.test(p))) throw new Error('--sets: a blind test set; cross-fit on dev sets only');
const listed = Number(a.listed);

const base = loadConfig();
const config = { ...base, dataDir: resolve(a['data-dir']!), llm: { ...base.llm, enabled: false } };
const graph = new GraphStore(config.neo4j);
await graph.connect();
const sets: { name: string; samples: CalibrationSample[] }[] = [];
try {
  const capture = scoreCapture();
  const query = await openQueryService({ graph, dataDir: config.dataDir, embedder: createEmbedder(config), reasoners: [new EvidenceReasoner(config.priorWeights ?? {}, { onScores: capture.onScores })], calibrated: false, ...(config.gate ? { gate: config.gate } : {}), ...(config.query?.recordRetrieval ? { recordRetrieval: config.query.recordRetrieval } : {}) });
  const truthOf = truthResolver(query.snapshot);
  for (const p of paths) {
    const cases = casesFromText(await readTextCases(p), (c) => truthOf({ diagnosis: c.condition, icd10: null }).diseaseId);
    const got = await collectSamples({ diagnose: (i) => query.diagnose(i), snapshot: query.snapshot, capture }, cases);
    sets.push({ name: basename(p), samples: got.byKind.text });
  }
} finally {
  await graph.close();
}

/** The case as the bench scores it: the top `listed` by raw score, the rest spread evenly. */
function scored(s: CalibrationSample, p: KindTemperature | undefined): ProbabilityCase {
  const probs = calibratedPosterior(s.scores, p, s.completeness).probs;
  const order = Array.from(s.scores, (_, i) => i).sort((x, y) => s.scores[y]! - s.scores[x]! || x - y).slice(0, listed);
  return probabilityCase(order.map((d) => ({ diseaseId: String(d), p: probs[d]! })), String(s.truth), s.scores.length);
}
const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const line = (label: string, cases: ProbabilityCase[]) => {
  const m = calibrationMetrics(cases)!;
  return `| ${label} | ${m.n} | ${f3(m.ece)} [${f3(m.ci95.ece[0])}, ${f3(m.ci95.ece[1])}] | ${f3(m.brier)} | ${f3(m.log_loss)} | ${f3(m.auroc)} | ${(100 * m.truth_under_1pct).toFixed(1)}% |`;
};
process.stdout.write('| scored on (fitted on) | n | ECE [95% CI] | Brier | log-loss | AUROC top-1 p | truth < 1% |\n| --- | --- | --- | --- | --- | --- | --- |\n');
const before: ProbabilityCase[] = [];
const after: ProbabilityCase[] = [];
/** Each set's cases scored by the fit on all the other sets (reused by --baseline). */
const outOfSet = new Map<string, ProbabilityCase[]>();
for (const [i, test] of sets.entries()) {
  const train = sets.filter((_, j) => j !== i).flatMap((s) => s.samples);
  const fit = fitCalibrationParams(train);
  const b = test.samples.map((s) => scored(s, undefined));
  const c = test.samples.map((s) => scored(s, fit));
  before.push(...b);
  after.push(...c);
  outOfSet.set(test.name, c);
  process.stdout.write(`${line(`${test.name} uncalibrated`, b)}\n${line(`${test.name} (${sets.filter((_, j) => j !== i).map((s) => s.name).join(', ')})`, c)}\n`);
  process.stderr.write(`fit on the others for ${test.name}: b0 ${fit.b0.toFixed(3)} b1 ${fit.b1.toFixed(3)} tail ${fit.tail ?? 'none'} mix ${fit.mix ? `${fit.mix.weight}@β${fit.mix.beta}` : 'none'} top-label ${fit.topLabel ? 'yes' : 'no'} top-odds ${fit.topOdds ? 'yes' : 'no'}\n`);
}
process.stdout.write(`${line('pooled uncalibrated', before)}\n${line('pooled out-of-set', after)}\n`);
const baseSet = sets.find((x) => x.name === basename(a.baseline ?? ''));
if (baseSet) {
  // The same cases (every set but the baseline), each scored by a fit on the baseline alone and by the loop's fit on all its others.
  const fit = fitCalibrationParams(baseSet.samples);
  const others = sets.filter((x) => x !== baseSet);
  const one = others.flatMap((x) => x.samples.map((s) => scored(s, fit)));
  const rest = others.flatMap((x) => outOfSet.get(x.name)!);
  process.stdout.write(`${line(`pooled but ${baseSet.name}, fitted on ${baseSet.name} alone`, one)}\n${line(`pooled but ${baseSet.name}, fitted on all its others`, rest)}\n`);
}
process.stdout.write(`\npooled out-of-set, truth at rank ${formatRankLine(calibrationMetrics(after)!)}\n`);
