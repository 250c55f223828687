/**
 * Temperature scaling of the evidence reasoner's posterior (Guo et al., "On Calibration of
 * Modern Neural Networks", ICML 2017, §4.2): p_i = softmax(β · z)_i, β = 1/T, over the
 * reasoner's log-scores z of every disease of the KG — optionally on a log-compressed score
 * (a heavier tail, below):
 *
 *   z'_i = −log(1 + (max_j z_j − z_i) / s)        s > 0: the tail scale; absent: z' = z
 *   p_i  = softmax(β · z')_i
 *
 * With z' the probability of a disease far behind the leader falls as a power of its score
 * gap, (1 + Δ/s)^−β, not exponentially: naive Bayes sums many findings' log-likelihoods, so a
 * disease missing one modelled finding trails by tens of nats and plain scaling still gives it
 * ~0 even when it is the truth. As s → ∞ the form tends to plain temperature scaling (with
 * β/s), so the fit (fit-temperature.ts) keeps whichever fits held-out cases better.
 *
 * And optionally a broad reading mixed in (a robust mixture, as the reasoner's own ε does
 * for single findings): p = (1 − w) · softmax(β · z') + w · softmax(β_w · z'), β_w < β. With
 * weight w the whole reading may be off (a phrase matched to the wrong finding, a finding the
 * KG does not model): the tail then keeps a share by score instead of ~0, while the head is
 * left almost as it was. Both parts are increasing in z, so their mixture still never reorders.
 *
 * Naive Bayes over many findings is overconfident, and how much depends on the input: a
 * complete coded record is nearly always right when it is sure, a one-line free-text note is
 * not. So β is fitted per input kind (coded findings vs free text) and varies with the
 * description's completeness c ∈ [0, 1] (scoring-naive-bayes.ts `completeness`):
 *
 *   β(kind, c) = b0(kind) + b1(kind) · c,  clamped to [MIN_BETA, MAX_BETA]
 *
 * β > 0 is monotone, so the order of the differential never changes: only the numbers do.
 * Last, optionally, the first disease's probability is remapped and the rest rescaled by one
 * factor: by an isotonic map of it (top-label.ts) or by a logistic map of the raw log-odds
 * (top-odds.ts), one for the kind or one per completeness band (top-bands.ts); each keeps the
 * first disease first and the rest in order. A kind may instead hold one whole calibration per
 * completeness band (fit-strata.ts): each case is calibrated by its band's, again monotone.
 */
import { applyTopOdds, type TopOddsMap } from './top-odds.js';
import { applyTopBands, type TopBand } from './top-bands.js';
import { applyTopLabel, type TopLabelMap } from './top-label.js';

export const INPUT_KINDS = ['coded', 'text'] as const;
export type InputKind = (typeof INPUT_KINDS)[number];

export interface KindTemperature {
  b0: number;
  b1: number;
  /** Tail scale s of the log-compressed score; absent/null: plain temperature scaling. */
  tail?: number | null;
  /** The broad reading mixed in: weight w and its inverse temperature β_w; absent/null: none. */
  mix?: { weight: number; beta: number } | null;
  /** The first disease's probability mapped by an isotonic fit, the rest rescaled (top-label.ts); absent/null: none. */
  topLabel?: TopLabelMap | null;
  /** The first disease's probability from a logistic map of the raw log-odds, the rest rescaled (top-odds.ts); replaces topLabel; absent/null: none. */
  topOdds?: TopOddsMap | null;
  /** The first disease's map by completeness band (top-bands.ts); replaces topLabel and topOdds; absent/null: none. */
  topBands?: TopBand[] | null;
  /** One calibration per completeness band (fit-strata.ts): the case's band's parameters replace every field above; absent/null: none. */
  strata?: Stratum[] | null;
}

/** A band of completeness (≤ upTo after the previous band's; null: everything above) and its own calibration. */
export interface Stratum {
  upTo: number | null;
  params: KindTemperature;
}

/** The parameters a case of completeness `c` is calibrated with: its stratum's, when the kind is stratified. */
export function paramsAt(p: KindTemperature | undefined, completeness: number): KindTemperature | undefined {
  if (!p?.strata) return p;
  return p.strata.find((s) => s.upTo === null || completeness <= s.upTo)?.params ?? p.strata[p.strata.length - 1]?.params;
}

/** The build's calibration (calibration-file.ts persists it); a kind without parameters keeps β = 1. */
export interface PosteriorCalibration {
  method: 'temperature';
  kinds: Partial<Record<InputKind, KindTemperature>>;
}

/** β stays positive (order preserved) and bounded (a fit on few cases cannot blow a score up or flatten it to uniform). */
export const MIN_BETA = 0.02;
export const MAX_BETA = 50;

export function inverseTemperature(kind: KindTemperature | undefined, completeness: number): number {
  const p = paramsAt(kind, completeness);
  if (!p) return 1;
  const beta = p.b0 + p.b1 * Math.min(1, Math.max(0, completeness));
  return Math.min(MAX_BETA, Math.max(MIN_BETA, beta));
}

/** Free text (with or without coded findings beside it) reads as text: the less certain reading wins. */
export function inputKind(input: { text: string | null }): InputKind {
  return input.text !== null && input.text.trim() !== '' ? 'text' : 'coded';
}

/** z' of the header (the identity without a tail scale); z'_max = 0 when compressed. */
export function tailScores(scores: ArrayLike<number>, tail: number | null | undefined): ArrayLike<number> {
  if (!tail) return scores;
  let max = -Infinity;
  for (let i = 0; i < scores.length; i++) if (scores[i]! > max) max = scores[i]!;
  return Float64Array.from(scores as ArrayLike<number>, (z) => -Math.log1p((max - z) / tail));
}

/** The calibrated posterior of every disease: softmax(β(kind, c) · z'). */
export function calibratedPosterior(scores: ArrayLike<number>, kind: KindTemperature | undefined, completeness: number): { probs: Float64Array; beta: number } {
  const p = paramsAt(kind, completeness);
  const beta = inverseTemperature(p, completeness);
  const z = tailScores(scores, p?.tail);
  const probs = scaledSoftmax(z, beta);
  if (p?.mix && p.mix.weight > 0) {
    const broad = scaledSoftmax(z, p.mix.beta);
    for (let i = 0; i < probs.length; i++) probs[i] = (1 - p.mix.weight) * probs[i]! + p.mix.weight * broad[i]!;
  }
  if (p?.topBands) applyTopBands(probs, scores, p.topBands, completeness);
  else if (p?.topOdds) applyTopOdds(probs, scores, p.topOdds);
  else if (p?.topLabel) applyTopLabel(probs, p.topLabel);
  return { probs, beta };
}

/** softmax(β · z), numerically stable (shifted by the maximum). */
export function scaledSoftmax(scores: ArrayLike<number>, beta: number): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < scores.length; i++) if (scores[i]! > max) max = scores[i]!;
  const out = new Float64Array(scores.length);
  let z = 0;
  for (let i = 0; i < scores.length; i++) {
    out[i] = Math.exp(beta * (scores[i]! - max));
    z += out[i]!;
  }
  for (let i = 0; i < out.length; i++) out[i]! /= z;
  return out;
}
