/**
 * How honest the differential's probabilities are, over evaluated cases (issue 26):
 *   ECE       Σ_b (n_b / N) · |acc_b − conf_b| over 10 equal-width bins of the top-1
 *             probability (Naeini et al. 2015; Guo et al. 2017 eq. 3)
 *   Brier     Σ_j (p_j − y_j)² over every disease of the KG (Brier 1950, multi-class form)
 *   log-loss  −log p(true diagnosis), p clipped at 1e-6 (a probability of exactly 0 would be ∞)
 *   AUROC     of the top-1 probability, right vs wrong top-1 (auroc.ts): does the number separate them?
 *   under 1%  share of cases whose true diagnosis was given less than 1%
 * with percentile-bootstrap 95% intervals (Efron & Tibshirani 1993, §13.3; 1000 seeded resamples).
 * ECE is biased upward on few cases: `ece_if_calibrated` is the mean ECE of the same top-1
 * probabilities when each answer is right exactly as often as it says (simulated, seeded), the
 * floor a perfectly calibrated system would show on this many cases, and `ece_consistency_p` how
 * often it shows at least the measured ECE (Bröcker & Smith, Weather and Forecasting 2007).
 * A differential lists the top diseases only: the probability left to the unlisted ones
 * (1 − Σ listed) is spread evenly over them, which is what a truth outside the list gets.
 */
import { seededRandom } from '../util/rng.js';
import { auroc } from './auroc.js';
import { bootstrapPoints, LOG_FLOOR } from './bootstrap-point.js';
import { calibratedDraws } from './consistency-draws.js';
import { percentile } from './percentile.js';
import { rankReliability, type RankedCase, type RankGroup } from './rank-reliability.js';

/** One case's probabilities: all the metrics need, computed once. */
export interface ProbabilityCase {
  top: number;
  correct: boolean;
  truth: number;
  brier: number;
  /** The listed probabilities and the truth's rank among them, for the rank reliability (rank-reliability.ts). */
  ranked?: RankedCase;
}

/** `listed`: the differential best first; `diseaseCount`: diseases in the KG. */
export function probabilityCase(listed: readonly { diseaseId: string; p: number }[], truthId: string, diseaseCount: number): ProbabilityCase {
  const unlistedCount = Math.max(0, diseaseCount - listed.length);
  const rest = Math.max(0, 1 - listed.reduce((a, d) => a + d.p, 0));
  const each = unlistedCount > 0 ? rest / unlistedCount : 0;
  const hit = listed.find((d) => d.diseaseId === truthId);
  let brier = listed.reduce((a, d) => a + (d.p - (d.diseaseId === truthId ? 1 : 0)) ** 2, 0) + unlistedCount * each * each;
  if (!hit && unlistedCount > 0) brier += (each - 1) ** 2 - each * each;
  const rank = listed.findIndex((d) => d.diseaseId === truthId);
  const ranked: RankedCase = { listed: listed.map((d) => d.p), truthRank: rank < 0 ? null : rank + 1, unlistedCount };
  return { top: listed[0]?.p ?? 0, correct: listed[0]?.diseaseId === truthId, truth: hit ? hit.p : each, brier, ranked };
}

export interface ReliabilityBin {
  lo: number;
  hi: number;
  n: number;
  /** Mean top-1 probability and top-1 accuracy in the bin (null when empty). */
  confidence: number | null;
  accuracy: number | null;
}

type Interval = [number, number];

export interface CalibrationMetrics {
  n: number;
  accuracy: number;
  mean_top1: number;
  ece: number;
  brier: number;
  log_loss: number;
  /** null when every top-1 was right (or every one wrong). */
  auroc: number | null;
  truth_under_1pct: number;
  /** Mean ECE if the shown top-1 probabilities were exactly right (sampling noise alone). */
  ece_if_calibrated: number;
  /**
   * Share of those simulated calibrated draws whose ECE is at least the one measured: the
   * consistency-resampling p-value (Bröcker & Smith 2007). Small (< 0.05): the gap is more than
   * sampling noise; large: this many cases cannot tell the scores from calibrated ones.
   */
  ece_consistency_p: number;
  ci95: { ece: Interval; brier: Interval; log_loss: Interval; auroc: Interval | null; truth_under_1pct: Interval };
  reliability: ReliabilityBin[];
  /** Where the truth ranked against the probability given there (rank-reliability.ts); empty without ranked cases. */
  by_rank: RankGroup[];
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export function reliabilityBins(cases: readonly ProbabilityCase[], bins = 10): ReliabilityBin[] {
  const out = Array.from({ length: bins }, (_, b) => ({ lo: b / bins, hi: (b + 1) / bins, sumC: 0, hits: 0, n: 0 }));
  for (const c of cases) {
    const b = out[Math.min(bins - 1, Math.floor(c.top * bins))]!;
    b.n++;
    b.sumC += c.top;
    if (c.correct) b.hits++;
  }
  return out.map((b) => ({ lo: b.lo, hi: b.hi, n: b.n, confidence: b.n ? b.sumC / b.n : null, accuracy: b.n ? b.hits / b.n : null }));
}

export function expectedCalibrationError(cases: readonly ProbabilityCase[], bins = 10): number {
  if (cases.length === 0) return 0;
  return reliabilityBins(cases, bins).reduce((a, b) => a + (b.n === 0 ? 0 : (b.n / cases.length) * Math.abs(b.accuracy! - b.confidence!)), 0);
}

/** The metrics over the cases as given (the bootstrap's resamples: bootstrap-point.ts, the same figures). */
export function point(cases: readonly ProbabilityCase[]) {
  return {
    ece: expectedCalibrationError(cases),
    brier: mean(cases.map((c) => c.brier)),
    log_loss: mean(cases.map((c) => -Math.log(Math.max(LOG_FLOOR, c.truth)))),
    auroc: auroc(cases.map((c) => c.top), cases.map((c) => c.correct)),
    truth_under_1pct: cases.filter((c) => c.truth < 0.01).length / Math.max(1, cases.length),
  };
}

export function calibrationMetrics(cases: readonly ProbabilityCase[], opts: { resamples?: number; seed?: number } = {}): CalibrationMetrics | null {
  if (cases.length === 0) return null;
  const p = point(cases);
  const rnd = seededRandom(opts.seed ?? 1);
  const draws: ReturnType<typeof point>[] = [];
  const pointOf = bootstrapPoints(cases);
  const drawn = new Int32Array(cases.length); // one buffer: a resample's point is computed before the next draw
  for (let r = 0; r < (opts.resamples ?? 1000); r++) {
    for (let i = 0; i < drawn.length; i++) drawn[i] = Math.floor(rnd() * cases.length);
    draws.push(pointOf(drawn));
  }
  const ci = (k: 'ece' | 'brier' | 'log_loss' | 'truth_under_1pct'): Interval => {
    const xs = draws.map((d) => d[k]).sort((a, b) => a - b);
    return [percentile(xs, 2.5), percentile(xs, 97.5)];
  };
  // The same generator goes on from the bootstrap's last draw into the calibrated draws.
  const calibrated = calibratedDraws(cases.map((c) => c.top), { draws: Math.max(1, Math.round((opts.resamples ?? 1000) / 5)), measured: p.ece, rnd });
  const au = draws.map((d) => d.auroc).filter((x): x is number => x !== null).sort((a, b) => a - b);
  return {
    n: cases.length,
    accuracy: cases.filter((c) => c.correct).length / cases.length,
    mean_top1: mean(cases.map((c) => c.top)),
    ...p,
    ece_if_calibrated: calibrated.meanEce,
    ece_consistency_p: calibrated.atLeastShare,
    ci95: { ece: ci('ece'), brier: ci('brier'), log_loss: ci('log_loss'), auroc: au.length ? [percentile(au, 2.5), percentile(au, 97.5)] : null, truth_under_1pct: ci('truth_under_1pct') },
    reliability: reliabilityBins(cases),
    by_rank: cases.every((c) => c.ranked) ? rankReliability(cases.map((c) => c.ranked!)) : [],
  };
}
