/**
 * Fits β(c) = b0 + b1 · c and the tail scale s (temperature.ts) to held-out cases: for each s
 * of a log-spaced grid (and none: plain scaling), β by minimising the negative
 * log-likelihood of the true diagnosis (Guo et al. 2017 §4.2, with β linear in completeness):
 *
 *   NLL(b) = Σ_i [ −β_i · z_i,y + log Σ_j exp(β_i · z_i,j) ],   β_i = b0 + b1 · c_i
 *
 * NLL is convex in β (its second derivative is Var_p(z) ≥ 0) and β is linear in (b0, b1),
 * so Newton's method with a backtracking line search finds the optimum in a few steps:
 *   ∂NLL/∂b = Σ_i (E_p[z_i] − z_i,y) · x_i,   ∂²NLL/∂b² = Σ_i Var_p(z_i) · x_i x_iᵀ,   x_i = (1, c_i).
 * A small ridge on b1 keeps the system solvable when every case has the same completeness.
 *
 * Then the optional stages (temperature.ts): the broad reading, fitted jointly with β(c), and
 * the top-label map, each kept only if it lowers the NLL of cases its fit did not see (CV_FOLDS);
 * and, where the result ranks right and wrong first answers worse than the raw posterior did on
 * the fit cases, the first disease's probability from the raw log-odds (top-odds.ts).
 */
import { auroc } from '../eval/auroc.js';
import { fitTopOdds, rawTopLogOdds } from './top-odds.js';
import { fitTopLabel } from './top-label.js';
import { edgesOf, fitBandedTopLabel, fitBandedTopOdds } from './fit-top-bands.js';
import { calibratedPosterior, inverseTemperature, tailScores, type KindTemperature } from './temperature.js';
import { clampBeta, fitBeta, meanShiftedNll, shiftCase, type ShiftedCase } from './fit-beta.js';
import { nelderMead } from './nelder-mead.js';

export interface CalibrationSample {
  /** The reasoner's log-scores of every disease (any additive constant). */
  scores: ArrayLike<number>;
  /** Index of the true disease in `scores`. */
  truth: number;
  completeness: number;
}

export interface TemperatureFit extends KindTemperature {
  n: number;
  /** Mean NLL of the true diagnosis before (β = 1) and after the fit. */
  nllBefore: number;
  nllAfter: number;
  iterations: number;
}

/** Mean NLL of the truth at the given parameters, β clamped as it will be when applied. */
export function meanNll(samples: readonly CalibrationSample[], p: KindTemperature | undefined): number {
  if (samples.length === 0) return 0;
  if (p?.mix || p?.topLabel || p?.topOdds || p?.topBands || p?.strata) return samples.reduce((a, s) => a - Math.log(Math.max(calibratedPosterior(s.scores, p, s.completeness).probs[s.truth]!, 1e-300)), 0) / samples.length;
  return meanShiftedNll(samples.map((s) => shiftCase({ ...s, scores: tailScores(s.scores, p?.tail) })), (c) => inverseTemperature(p, c));
}

/** Tail scales tried (nats of score gap), and none (plain scaling): the one with the lowest NLL wins. */
export const TAIL_GRID: readonly (number | null)[] = [null, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256];

/** Broad-reading weights w and inverse temperatures β_w tried with β and s (w = 0: none). */
export const MIX_WEIGHTS: readonly number[] = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3];
export const MIX_BETAS: readonly number[] = [0.003, 0.01, 0.03, 0.1, 0.3, 0.5];

/**
 * Folds of the stage selection: the broad reading and the top-label stage are each kept only if
 * they lower the NLL of cases their fit did not see (k-fold cross-fitting; fewer cases than
 * CV_MIN_CASES: judged on the fit set itself, as before). In-sample, an extra stage nearly always
 * lowers the NLL; across the two vignette dev sets (fit on one, scored on the other) the top-label
 * stage raised ECE and log-loss, and a confident set whose calibration cases were harder lost
 * log-loss to its cap on the first disease (issue 26, docs/free-text.md).
 */
export const CV_FOLDS = 5;
export const CV_MIN_CASES = 50;

export interface FitOptions {
  /** Choose the optional stages by cross-fitted NLL (default true). */
  select?: boolean;
  /** The raw posterior is a candidate of the cross-fitted choice (default true): kept when no fit beats it out of sample. */
  identity?: boolean;
  /** Cases a completeness band needs for a map of its own (default MIN_BAND_CASES). */
  minBandCases?: number;
}

/**
 * A completeness band gets a first-disease map of its own (fit-top-bands.ts) only with this many
 * fit cases: the count at which a band's accuracy has a standard error of 2.5 points whatever it
 * is (p(1 − p)/n ≤ 0.25/400), half the 0.05 ECE the goals allow. A default build's 180 held-out
 * chief complaints are fewer: their first turns differed from fold to fold by 3 points of
 * over-confidence, and a map of their own followed that noise (docs/eval.md, session of issue 48).
 */
export const MIN_BAND_CASES = 400;

export function fitCalibrationParams(samples: readonly CalibrationSample[], grid: readonly (number | null)[] = TAIL_GRID, mix = true, opts: FitOptions = {}): TemperatureFit {
  const fit = selectStages(samples, grid, mix, opts);
  // β(c) and the tail reshape each case by its own gaps and completeness, so a right and a wrong
  // answer can swap places in confidence: when the first disease's probability then separates
  // right from wrong answers worse than the raw one on the fit cases, it is taken from the raw
  // log-odds instead (top-odds.ts; issue 26: the top-1 AUROC no lower than before).
  const raw = top1Auroc(samples, undefined);
  if (top1Auroc(samples, fit) >= raw - 1e-12) return fit;
  // A fit chosen with a map per completeness band keeps its bands, each map from the raw log-odds,
  // if that ranks right and wrong no worse than raw; else the kind-wide map of the raw log-odds.
  if (fit.topBands) {
    const bands = fitBandedTopOdds(samples, edgesOf(fit.topBands));
    const cand: TemperatureFit | null = bands ? { ...fit, topLabel: null, topOdds: null, topBands: bands } : null;
    if (cand && top1Auroc(samples, cand) >= raw - 1e-12) return { ...cand, nllAfter: meanNll(samples, cand) };
  }
  return withTopOdds(samples, { ...fit, topBands: null });
}

/** The fit with its first-disease probability from the raw log-odds (top-odds.ts) instead of any top-label map. */
export function withTopOdds(samples: readonly CalibrationSample[], fit: TemperatureFit): TemperatureFit {
  const pairs = samples.map((s) => {
    const { top, logOdds } = rawTopLogOdds(s.scores);
    return { logOdds, right: top === s.truth };
  });
  const topOdds = fitTopOdds(pairs);
  if (!topOdds) return fit;
  const cand: TemperatureFit = { ...fit, topLabel: null, topBands: null, topOdds };
  return { ...cand, nllAfter: meanNll(samples, cand) };
}

/** AUROC of the first disease's probability, right against wrong first answers (0.5 when all are right or all wrong). */
export function top1Auroc(samples: readonly CalibrationSample[], p: KindTemperature | undefined): number {
  const pairs = samples.map((s) => {
    const probs = calibratedPosterior(s.scores, p, s.completeness).probs;
    let top = 0;
    for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[top]!) top = i;
    return { p: probs[top]!, right: top === s.truth };
  });
  return auroc(pairs.map((x) => x.p), pairs.map((x) => x.right)) ?? 0.5;
}

function selectStages(samples: readonly CalibrationSample[], grid: readonly (number | null)[], mix: boolean, opts: FitOptions): TemperatureFit {
  const before = meanNll(samples, undefined);
  const shifted = shiftedCache();
  const stages = (train: readonly CalibrationSample[]) => fitStages(train, grid, mix, opts.minBandCases ?? MIN_BAND_CASES, shifted);
  const all = stages(samples);
  let pick: StageChoice;
  if ((opts.select ?? true) && samples.length >= CV_MIN_CASES) {
    // Fold f holds every CV_FOLDS-th case from f: deterministic, and each fold sees every kind of case in the order given.
    // Out-of-fold NLL of every case under each candidate (and the raw posterior).
    const oof: Record<StageChoice | 'raw', number[]> = { base: [], mix: [], top: [], mixTop: [], band: [], mixBand: [], raw: [] };
    for (let f = 0; f < CV_FOLDS; f++) {
      const test = samples.filter((_, i) => i % CV_FOLDS === f);
      const fitted = stages(samples.filter((_, i) => i % CV_FOLDS !== f));
      for (const s of test) {
        for (const k of STAGE_CHOICES) oof[k].push(meanNll([s], fitted[k]));
        oof.raw.push(meanNll([s], undefined));
      }
    }
    const loss = (k: StageChoice) => oof[k].reduce((a, x) => a + x, 0);
    pick = STAGE_CHOICES.reduce((a, k) => (loss(k) < loss(a) - 1e-9 ? k : a), 'base' as StageChoice);
    // The raw posterior is kept unless the fit beats it out of sample by more than one standard
    // error of the per-case gain (the one-standard-error rule, Breiman et al. 1984: prefer the
    // simplest model within noise of the best). A near-perfect set read with near-certainty gains
    // only the folds' noise from a fit, and such fits cost log-loss on sets easier than their
    // calibration cases (issue 26, docs/free-text.md).
    if ((opts.identity ?? true) && !clearGain(oof.raw, oof[pick])) return { ...IDENTITY, n: samples.length, nllBefore: before, nllAfter: before, iterations: 0 };
  } else {
    pick = STAGE_CHOICES.reduce((a, k) => (all[k].nllAfter < all[a].nllAfter - 1e-9 ? k : a), 'base' as StageChoice);
  }
  return { ...all[pick], nllBefore: before, nllAfter: meanNll(samples, all[pick]) };
}

/** True when the per-case NLL gain of `fit` over `raw` has a mean above one standard error (and above 0). */
export function clearGain(raw: readonly number[], fit: readonly number[]): boolean {
  const n = raw.length;
  if (n < 2) return false;
  const d = raw.map((r, i) => r - fit[i]!);
  const mean = d.reduce((a, x) => a + x, 0) / n;
  const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  return mean > 1e-9 && mean > sd / Math.sqrt(n);
}

const STAGE_CHOICES = ['base', 'mix', 'top', 'mixTop', 'band', 'mixBand'] as const;
type StageChoice = (typeof STAGE_CHOICES)[number];
/** β = 1, no tail, no stage: the raw posterior exactly (temperature.ts). */
const IDENTITY: KindTemperature = { b0: 1, b1: 0, tail: null, mix: null };

/**
 * Every candidate on one set of cases: β(c) and the tail scale s (base); β(c) refitted jointly
 * with the broad reading (mix: with a broad reading catching the misreadings, the rest can be
 * trusted more, so β is refitted, not kept); and each with the top-label map after it, one for
 * the kind (top) or one per completeness band (band: fit-top-bands.ts).
 */
function fitStages(samples: readonly CalibrationSample[], grid: readonly (number | null)[], mix: boolean, minBandCases: number, shifted: Shifted): Record<StageChoice, TemperatureFit> {
  const before = meanNll(samples, undefined);
  let base: TemperatureFit | null = null;
  for (const tail of grid) {
    const fit = fitBeta(samples.map((s) => shifted(s, tail)));
    if (!base || fit.nllAfter < base.nllAfter - 1e-12) base = { ...fit, tail, mix: null, nllBefore: before };
  }
  const b = base!;
  const withMix = mix ? fitJointMix(samples, b, shifted) : b;
  const top = (fit: TemperatureFit): TemperatureFit => {
    const topLabel = fitTopLabelOn(samples, fit);
    if (!topLabel) return fit;
    const cand = { ...fit, topLabel };
    return { ...cand, nllAfter: meanNll(samples, cand) };
  };
  const band = (fit: TemperatureFit): TemperatureFit => {
    // A band holds at least minBandCases and two blocks of a kind-wide map.
    const topBands = fitBandedTopLabel(samples, fit, { minBand: Math.max(minBandCases, 2 * topLabelBlock(samples.length)), minBlock: MIN_TOP_LABEL_BLOCK });
    if (!topBands) return fit;
    const cand = { ...fit, topBands };
    return { ...cand, nllAfter: meanNll(samples, cand) };
  };
  return { base: b, mix: withMix, top: top(b), mixTop: top(withMix), band: band(b), mixBand: band(withMix) };
}

/** The first disease's probability against "was it right" on the fit cases, through the isotonic map (top-label.ts). */
function fitTopLabelOn(samples: readonly CalibrationSample[], p: KindTemperature): ReturnType<typeof fitTopLabel> {
  const pairs = samples.map((s) => {
    const probs = calibratedPosterior(s.scores, p, s.completeness).probs;
    let top = 0;
    for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[top]!) top = i;
    return { p: probs[top]!, right: top === s.truth };
  });
  return fitTopLabel(pairs, topLabelBlock(samples.length));
}

/** Cases per isotonic block of a kind-wide map: MIN_TOP_LABEL_BLOCK, and a tenth of the fit set. */
const topLabelBlock = (n: number) => Math.max(MIN_TOP_LABEL_BLOCK, Math.round(n / 10));

/**
 * The broad reading (w, β_w) by grid, with β(c) = b0 + b1·c refitted for each grid point by
 * Nelder-Mead from the base fit (the mixture's NLL is not convex in b); the tail scale is the
 * base fit's. Kept only where it lowers the NLL of the fit cases.
 */
function fitJointMix(samples: readonly CalibrationSample[], base: TemperatureFit, shifted: Shifted): TemperatureFit {
  // Per case: z' shifted so its maximum is 0 (read only), and the truth's index.
  const zs = samples.map((s) => shifted(s, base.tail ?? null).d);
  const softTruth = (z: Float64Array, truth: number, beta: number): number => {
    let sum = 0;
    for (let i = 0; i < z.length; i++) sum += Math.exp(beta * z[i]!);
    return Math.exp(beta * z[truth]!) / sum;
  };
  const mixNll = (w: number, broad: readonly number[], sharp: (i: number) => number) => {
    let a = 0;
    for (let i = 0; i < samples.length; i++) a -= Math.log(Math.max(1e-300, (1 - w) * sharp(i) + w * broad[i]!));
    return a / samples.length;
  };
  // The simplex's objective, evaluated ~500 times a fit on every case: the same arithmetic as
  // mixNll over softTruth (the same parameters to the bit), in one loop without three closure
  // calls per case: in profiles of a default build's fit, those calls were 3-7 of its ~25 s.
  const truths = Int32Array.from(samples, (s) => s.truth);
  const levels = Float64Array.from(samples, (s) => s.completeness);
  const nllOf = (w: number, broad: readonly number[], x: readonly number[]) => {
    const b = x as [number, number];
    let a = 0;
    for (let i = 0; i < zs.length; i++) {
      const z = zs[i]!;
      const beta = clampBeta(b, levels[i]!);
      let sum = 0;
      for (let j = 0; j < z.length; j++) sum += Math.exp(beta * z[j]!);
      a -= Math.log(Math.max(1e-300, (1 - w) * (Math.exp(beta * z[truths[i]!]!) / sum) + w * broad[i]!));
    }
    return a / zs.length;
  };
  // Every grid point at the base β first (the sharp part is the same for all of them: computed once); β refitted for the few best only.
  const atBase = samples.map((s, i) => softTruth(zs[i]!, s.truth, clampBeta([base.b0, base.b1], s.completeness)));
  const grid: { w: number; bw: number; broad: number[]; nll: number }[] = [];
  for (const bw of MIX_BETAS) {
    const broad = samples.map((s, i) => softTruth(zs[i]!, s.truth, bw));
    for (const w of MIX_WEIGHTS) grid.push({ w, bw, broad, nll: mixNll(w, broad, (i) => atBase[i]!) });
  }
  grid.sort((a, b) => a.nll - b.nll);
  let best = base;
  for (const g of grid.slice(0, MIX_REFIT)) {
    const x = nelderMead((v) => nllOf(g.w, g.broad, v), [base.b0, base.b1], 0.2, 60);
    const cand: TemperatureFit = { ...base, b0: x[0]!, b1: x[1]!, mix: { weight: g.w, beta: g.bw } };
    const after = meanNll(samples, cand);
    if (after < best.nllAfter - 1e-9) best = { ...cand, nllAfter: after };
  }
  return best;
}

/** Grid points of the broad reading whose β(c) is refitted (the best at the base β). */
const MIX_REFIT = 4;

/** Cases per isotonic block at least (and a tenth of the fit set): a step per case would memorise it. */
export const MIN_TOP_LABEL_BLOCK = 20;

/** β(c) by Newton's method on the cases as given (fit-beta.ts). */
export function fitTemperature(samples: readonly CalibrationSample[], opts: { maxIterations?: number } = {}): TemperatureFit {
  return fitBeta(samples.map(shiftCase), opts);
}

/**
 * Each case shifted once per tail scale, for every fit of one fitCalibrationParams call: its
 * cross-fitting folds refit on subsets of the same cases (the same objects), and the broad
 * reading reads the same shifted scores as the base fit.
 */
type Shifted = (s: CalibrationSample, tail: number | null) => ShiftedCase;

function shiftedCache(): Shifted {
  const cache = new Map<CalibrationSample, Map<number | null, ShiftedCase>>();
  return (s, tail) => {
    let byTail = cache.get(s);
    if (!byTail) cache.set(s, (byTail = new Map()));
    let got = byTail.get(tail);
    if (!got) byTail.set(tail, (got = shiftCase({ ...s, scores: tailScores(s.scores, tail) })));
    return got;
  };
}
