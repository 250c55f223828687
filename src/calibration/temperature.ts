/**
 * Temperature scaling of the evidence reasoner's posterior (Guo et al., "On Calibration of
 * Modern Neural Networks", ICML 2017, §4.2): p_i = softmax(β · z)_i, β = 1/T, over the
 * reasoner's log-scores z of every disease of the KG.
 *
 * Naive Bayes over many findings is overconfident, and how much depends on the input: a
 * complete coded record is nearly always right when it is sure, a one-line free-text note is
 * not. So β is fitted per input kind (coded findings vs free text) and varies with the
 * description's completeness c ∈ [0, 1] (scoring-naive-bayes.ts `completeness`):
 *
 *   β(kind, c) = b0(kind) + b1(kind) · c,  clamped to [MIN_BETA, MAX_BETA]
 *
 * β > 0 is monotone, so the order of the differential never changes: only the numbers do.
 */
export const INPUT_KINDS = ['coded', 'text'] as const;
export type InputKind = (typeof INPUT_KINDS)[number];

export interface KindTemperature {
  b0: number;
  b1: number;
}

/** The build's calibration (calibration-file.ts persists it); a kind without parameters keeps β = 1. */
export interface PosteriorCalibration {
  method: 'temperature';
  kinds: Partial<Record<InputKind, KindTemperature>>;
}

/** β stays positive (order preserved) and bounded (a fit on few cases cannot blow a score up or flatten it to uniform). */
export const MIN_BETA = 0.02;
export const MAX_BETA = 5;

export function inverseTemperature(p: KindTemperature | undefined, completeness: number): number {
  if (!p) return 1;
  const beta = p.b0 + p.b1 * Math.min(1, Math.max(0, completeness));
  return Math.min(MAX_BETA, Math.max(MIN_BETA, beta));
}

/** Free text (with or without coded findings beside it) reads as text: the less certain reading wins. */
export function inputKind(input: { text: string | null }): InputKind {
  return input.text !== null && input.text.trim() !== '' ? 'text' : 'coded';
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

/**
 * The uncalibrated scores of a listed differential, renormalised over the list: p_i^T / Σ p_j^T
 * (with p = softmax(z / T), p^T ∝ exp(z)). Sessions start their Bayes updates from these, so a
 * calibration changes what a consultation shows, never which questions it asks or what it ranks.
 */
export function undoTemperature(probs: readonly number[], temperature: number): number[] {
  if (temperature === 1 || probs.length === 0) return [...probs];
  const logs = probs.map((p) => temperature * Math.log(Math.max(p, Number.MIN_VALUE)));
  const max = Math.max(...logs);
  const e = logs.map((l) => Math.exp(l - max));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}
