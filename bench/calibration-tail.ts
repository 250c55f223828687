/**
 * Refit experiments on saved raw scores (issue 48: the truth under 1% or unlisted): the fit
 * cases a default build calibrated on (`dxgraph build --calibration-samples`) and the blind
 * vignettes' scores on the served KG (both written by bench/default-calibration.ts into its work
 * dir). Fits the text calibration as the build does, applies it to the blind cases through the
 * served listing (the 10 best and every disease at 1% or more; the unlisted rest spread evenly),
 * and prints issue 48's goals, where the truth ranked, and each case whose truth fell under 1%
 * (its rank and probability: numbers only). No Neo4j, no build: seconds.
 *
 * With --held-out (the bench's --eval run saved the held-out DDXPlus patients' coded scores on the
 * served KG, held-out-<variant>-samples.json), the coded fit is scored on them too: the chief
 * complaint is the interactive protocol's first turn (@0), through the same listing.
 *
 * With --trade-off, a broad reading mixed in after the text calibration (p' = (1 − w)·p + w·softmax(β_w·z),
 * order-preserving): its weight fitted by the NLL of the fit cases as w(c) = σ(d0 + d1·c) (a fitted
 * floor, larger for scant descriptions if the NLL asks), then forced weights, to show what the truth
 * under 1% costs in log-loss and ECE (tail-trade-off.ts).
 *
 *   node --import tsx bench/calibration-tail.ts [--work .dxgraph-bench/default-calibration] [--cases] [--refit] [--held-out] [--trade-off]
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CalibrationSample } from '../src/calibration/fit-temperature.js';
import { readCalibration } from '../src/calibration/calibration-file.js';
import { fitKindCalibration } from '../src/calibration/fit-strata.js';
import { readSamples } from '../src/calibration/samples-file.js';
import { readManifest } from '../src/query/load-snapshot.js';
import { calibratedPosterior, type KindTemperature } from '../src/calibration/temperature.js';
import { calibrationMetrics, probabilityCase, type ProbabilityCase } from '../src/eval/calibration-metrics.js';
import { formatRankLine } from '../src/eval/calibration-html.js';
import { listedDiseases } from '../src/reasoners/listed-diseases.js';
import { fitTailWeight, tailWeight, TRADE_OFF_BETAS, TRADE_OFF_WEIGHTS, withTail } from './lib/tail-trade-off.js';

const { values: a } = parseArgs({ options: { work: { type: 'string', default: '.dxgraph-bench/default-calibration' }, listed: { type: 'string', default: '10' }, cases: { type: 'boolean', default: false }, refit: { type: 'boolean', default: false }, 'held-out': { type: 'boolean', default: false }, 'trade-off': { type: 'boolean', default: false } } });
const work = resolve(a.work!);
const fit = await readSamples(join(work, 'fit-samples.json'));
const blind = (await readSamples(join(work, 'blind-samples.json'))).text;
const k = Number(a.listed);

/** The served differential of one case under `p`: listed diseases with their probabilities, and the truth's rank (1-based) by raw score. */
/** A calibration as a function of the case (a fit, or a fit with a tail mixed in: --trade-off). */
type ProbsOf = (s: CalibrationSample) => Float64Array;
const asProbs = (p: KindTemperature | undefined): ProbsOf => (s) => calibratedPosterior(s.scores, p, s.completeness).probs;

function served(s: CalibrationSample, p: KindTemperature | undefined | ProbsOf): { pc: ProbabilityCase; rank: number; pTruth: number } {
  const probs = (typeof p === 'function' ? p : asProbs(p))(s);
  const listed = listedDiseases(s.scores, probs, k);
  const D = s.scores.length;
  let rank = 1;
  for (let i = 0; i < D; i++) if (s.scores[i]! > s.scores[s.truth]! || (s.scores[i] === s.scores[s.truth] && i < s.truth)) rank++;
  const pc = probabilityCase(listed.map((d) => ({ diseaseId: String(d), p: probs[d]! })), String(s.truth), D);
  return { pc, rank, pTruth: probs[s.truth]! };
}

const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const top1Brier = (xs: readonly ProbabilityCase[]) => xs.reduce((t, x) => t + (x.top - (x.correct ? 1 : 0)) ** 2, 0) / Math.max(1, xs.length);

function report(name: string, p: KindTemperature | undefined | ProbsOf, cases: readonly CalibrationSample[] = blind): void {
  const rows = cases.map((s) => served(s, p));
  const m = calibrationMetrics(rows.map((r) => r.pc))!;
  const under = rows.filter((r) => r.pc.truth < 0.01);
  process.stdout.write(`${name.padEnd(22)} ECE ${f3(m.ece)} [${f3(m.ci95.ece[0])}, ${f3(m.ci95.ece[1])}] (calibrated shows ${f3(m.ece_if_calibrated)}, p ${m.ece_consistency_p.toFixed(2)})  log-loss ${f3(m.log_loss)}  top-1 Brier ${f3(top1Brier(rows.map((r) => r.pc)))}  AUROC ${f3(m.auroc)}  truth<1% ${pct(m.truth_under_1pct)} (${under.length})  mean top-1 ${pct(m.mean_top1)} acc ${pct(m.accuracy)}\n`);
  if (a.cases && cases === blind) for (const r of under.sort((x, y) => x.rank - y.rank)) process.stdout.write(`    truth rank ${r.rank}  p ${r.pTruth.toExponential(2)}  top-1 p ${r.pc.top.toFixed(3)}\n`);
}

process.stdout.write(`fit cases: coded ${fit.coded.length}, text ${fit.text.length}; blind text ${blind.length}\n`);
// Where the truth ranked on the blind cases (raw order: any calibration keeps it).
const ranks = blind.map((s) => served(s, undefined).rank);
const atLeast = (r: number) => ranks.filter((x) => x >= r).length;
process.stdout.write(`blind truth rank ≥ 4: ${atLeast(4)}, ≥ 6: ${atLeast(6)}, ≥ 11: ${atLeast(11)}, ≥ 20: ${atLeast(20)} of ${ranks.length}\n`);
// The same on the fit cases: how often an order-preserving calibration fitted there sees the truth that low.
const fitRanks = fit.text.map((s) => served(s, undefined).rank);
const share = (xs: number[], lo: number, hi = Infinity) => pct(xs.filter((x) => x >= lo && x <= hi).length / xs.length);
process.stdout.write(`truth at rank 4-10 / 11+: fit text cases ${share(fitRanks, 4, 10)} / ${share(fitRanks, 11)}, blind ${share(ranks, 4, 10)} / ${share(ranks, 11)}\n`);
report('uncalibrated', undefined);
// The served build's own text calibration, or (--refit) the build's fit made again on the saved scores (minutes).
let current: KindTemperature | undefined;
if (a.refit) {
  const t0 = performance.now();
  const f = fitKindCalibration(fit.text);
  process.stdout.write(`refit in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify({ ...f, topLabel: f.topLabel ? 'yes' : null })}\n`);
  current = f;
} else {
  const dataDir = join(work, 'data');
  current = (await readCalibration(dataDir, await readManifest(dataDir)))?.kinds.text;
}
report(a.refit ? 'refit' : 'served calibration', current);
void formatRankLine;

if (a['trade-off']) {
  const base = asProbs(current);
  report('  fit cases, served', base, fit.text);
  for (const bw of TRADE_OFF_BETAS) {
    const w = fitTailWeight(fit.text, base, bw);
    report(`fitted w(c) β_w ${bw}`, withTail(base, (s) => tailWeight(w, s.completeness), bw));
    process.stdout.write(`    w(c) = σ(${w.d0.toFixed(2)} + ${w.d1.toFixed(2)}·c): ${[0.1, 0.3, 0.6, 1].map((c) => `w(${c}) ${tailWeight(w, c).toFixed(3)}`).join(', ')}; fit-case NLL ${w.nllBefore.toFixed(4)} → ${w.nllAfter.toFixed(4)}\n`);
  }
  // Forced weights, each on the blind cases and (the lines marked "fit") on the fit cases it would be chosen on.
  for (const bw of TRADE_OFF_BETAS) {
    for (const w of TRADE_OFF_WEIGHTS) {
      report(`forced w ${w} β_w ${bw}`, withTail(base, () => w, bw));
      report('  fit', withTail(base, () => w, bw), fit.text);
    }
  }
}

if (a['held-out']) {
  // The coded fit (refitted, or the served one) on the held-out patients' coded variants.
  let coded: KindTemperature | undefined;
  if (a.refit) {
    const t0 = performance.now();
    // As the build fits coded input: one calibration per completeness band where the cases allow (fit-strata.ts).
    const f = fitKindCalibration(fit.coded);
    process.stdout.write(`coded refit in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify({ b0: f.b0, b1: f.b1, tail: f.tail, mix: f.mix, topLabel: Boolean(f.topLabel), topOdds: f.topOdds ?? null, bands: f.topBands?.map((b) => b.upTo) ?? null, strata: f.strata?.map((b) => b.upTo) ?? null })}\n`);
    coded = f;
  } else {
    const dataDir = join(work, 'data');
    coded = (await readCalibration(dataDir, await readManifest(dataDir)))?.kinds.coded;
  }
  for (const variant of ['chief-complaint', 'partial', 'record']) {
    const cases = (await readSamples(join(work, `held-out-${variant}-samples.json`))).coded;
    process.stdout.write(`held-out patients, ${variant}${variant === 'chief-complaint' ? ' (@0)' : ''}: n ${cases.length}\n`);
    report('  uncalibrated', undefined, cases);
    report(a.refit ? '  coded refit' : '  served coded', coded, cases);
  }
}

// What ECE's bootstrap interval can show on this many cases: a perfectly calibrated system with the
// same top-1 probabilities (each answer right exactly as often as it says), its interval over 40 draws.
const tops = blind.map((s) => served(s, current).pc);
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const sims = Array.from({ length: 40 }, () => calibrationMetrics(tops.map((c) => ({ ...c, correct: rnd() < c.top })), { resamples: 300, seed: Math.floor(rnd() * 1e6) })!);
const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
process.stdout.write(`a perfectly calibrated system with these ${tops.length} top-1 probabilities: ECE ${f3(mean(sims.map((m) => m.ece)))}, bootstrap interval [${f3(mean(sims.map((m) => m.ci95.ece[0])))}, ${f3(mean(sims.map((m) => m.ci95.ece[1])))}] on average; upper end above 0.05 in ${sims.filter((m) => m.ci95.ece[1] > 0.05).length} of ${sims.length} draws\n`);
