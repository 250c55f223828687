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
 */
import { fitTopLabel } from './top-label.js';
import { calibratedPosterior, inverseTemperature, MAX_BETA, MIN_BETA, scaledSoftmax, tailScores, type KindTemperature } from './temperature.js';

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

const RIDGE = 1e-3;

function caseTerms(s: CalibrationSample, beta: number): { nll: number; g: number; h: number } {
  const p = scaledSoftmax(s.scores, beta);
  let mean = 0;
  let sq = 0;
  let max = -Infinity;
  for (let j = 0; j < p.length; j++) if (s.scores[j]! > max) max = s.scores[j]!;
  for (let j = 0; j < p.length; j++) {
    const z = s.scores[j]! - max; // shifted: the same gradient, no overflow
    mean += p[j]! * z;
    sq += p[j]! * z * z;
  }
  const zy = s.scores[s.truth]! - max;
  return { nll: -Math.log(Math.max(p[s.truth]!, 1e-300)), g: mean - zy, h: Math.max(0, sq - mean * mean) };
}

/** Mean NLL of the truth at the given parameters, β clamped as it will be when applied. */
export function meanNll(samples: readonly CalibrationSample[], p: KindTemperature | undefined): number {
  if (samples.length === 0) return 0;
  if (p?.mix || p?.topLabel) return samples.reduce((a, s) => a - Math.log(Math.max(calibratedPosterior(s.scores, p, s.completeness).probs[s.truth]!, 1e-300)), 0) / samples.length;
  return samples.reduce((a, s) => a + caseTerms({ ...s, scores: tailScores(s.scores, p?.tail) }, inverseTemperature(p, s.completeness)).nll, 0) / samples.length;
}

/** Tail scales tried (nats of score gap), and none (plain scaling): the one with the lowest NLL wins. */
export const TAIL_GRID: readonly (number | null)[] = [null, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256];

/** Broad-reading weights w and inverse temperatures β_w tried once β and s are fitted (w = 0: none). */
export const MIX_WEIGHTS: readonly number[] = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2];
export const MIX_BETAS: readonly number[] = [0.003, 0.01, 0.03, 0.1, 0.3];

export function fitCalibrationParams(samples: readonly CalibrationSample[], grid: readonly (number | null)[] = TAIL_GRID, mix = true): TemperatureFit {
  const before = meanNll(samples, undefined);
  let best: TemperatureFit | null = null;
  for (const tail of grid) {
    const fit = fitTemperature(samples.map((s) => ({ ...s, scores: tailScores(s.scores, tail) })));
    if (!best || fit.nllAfter < best.nllAfter - 1e-12) best = { ...fit, tail, mix: null, nllBefore: before };
  }
  // Second stage: with β(c) and s fixed, the broad reading's weight and temperature by grid (kept only if it lowers the NLL).
  const chosen = best!;
  if (mix) {
    for (const weight of MIX_WEIGHTS) {
      for (const beta of MIX_BETAS) {
        const cand = { ...chosen, mix: { weight, beta } };
        const nll = meanNll(samples, cand);
        if (nll < best!.nllAfter - 1e-9) best = { ...cand, nllAfter: nll };
      }
    }
  }
  // Third stage: the first disease's probability by an isotonic fit (top-label.ts), kept only if it lowers the NLL.
  const pairs = samples.map((s) => {
    const probs = calibratedPosterior(s.scores, best!, s.completeness).probs;
    let top = 0;
    for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[top]!) top = i;
    return { p: probs[top]!, right: top === s.truth };
  });
  const topLabel = fitTopLabel(pairs, Math.max(MIN_TOP_LABEL_BLOCK, Math.round(samples.length / 10)));
  if (topLabel) {
    const cand = { ...best!, topLabel };
    const nll = meanNll(samples, cand);
    if (nll < best!.nllAfter - 1e-9) best = { ...cand, nllAfter: nll };
  }
  return best!;
}

/** Cases per isotonic block at least (and a tenth of the fit set): a step per case would memorise it. */
export const MIN_TOP_LABEL_BLOCK = 20;

export function fitTemperature(samples: readonly CalibrationSample[], opts: { maxIterations?: number } = {}): TemperatureFit {
  const n = samples.length;
  const before = meanNll(samples, undefined);
  if (n === 0) return { b0: 1, b1: 0, n, nllBefore: before, nllAfter: before, iterations: 0 };
  let b: [number, number] = [1, 0];
  const objective = (x: readonly [number, number]) => samples.reduce((a, s) => a + caseTerms(s, clampBeta(x, s.completeness)).nll, 0) + RIDGE * n * x[1] * x[1];
  let f = objective(b);
  let it = 0;
  for (; it < (opts.maxIterations ?? 50); it++) {
    let g0 = 0, g1 = 2 * RIDGE * n * b[1], h00 = 0, h01 = 0, h11 = 2 * RIDGE * n;
    for (const s of samples) {
      const c = s.completeness;
      const t = caseTerms(s, clampBeta(b, c));
      g0 += t.g; g1 += t.g * c;
      h00 += t.h; h01 += t.h * c; h11 += t.h * c * c;
    }
    const det = h00 * h11 - h01 * h01;
    // A singular Hessian (all cases certain) falls back to a gradient step.
    const step: [number, number] = det > 1e-12 ? [(h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det] : [g0 / (n || 1), g1 / (n || 1)];
    let lr = 1;
    let next: [number, number] = [b[0] - step[0], b[1] - step[1]];
    let fn = objective(next);
    while (fn > f && lr > 1e-6) {
      lr /= 2;
      next = [b[0] - lr * step[0], b[1] - lr * step[1]];
      fn = objective(next);
    }
    if (fn > f) break;
    const done = f - fn < 1e-9 * Math.max(1, Math.abs(f));
    b = next;
    f = fn;
    if (done) break;
  }
  const fitted = { b0: b[0], b1: b[1] };
  return { ...fitted, n, nllBefore: before, nllAfter: meanNll(samples, fitted), iterations: it };
}

/** β as applied (clamped), so the fit optimises what the query side will compute. */
function clampBeta(b: readonly [number, number], c: number): number {
  return Math.min(MAX_BETA, Math.max(MIN_BETA, b[0] + b[1] * c));
}
