/**
 * The Newton fit of β(c) = b0 + b1 · c (fit-temperature.ts has the formula and why), on cases
 * prepared once: each case's scores minus their maximum, which is what every softmax of it
 * subtracts first (temperature.ts scaledSoftmax), so the fit does the same arithmetic in the same
 * order as before and finds the same β to the bit, without recomputing the maximum, allocating a
 * probability vector per case and step, or a gradient pass the line search had already made
 * (issue 49: the default build's fit was 20 of its 47 s of CPU).
 */
import { inverseTemperature, MAX_BETA, MIN_BETA, type KindTemperature } from './temperature.js';

/** A case ready for the fit: d = z − max z (the truth's gap is d[truth]), its completeness. */
export interface ShiftedCase {
  d: Float64Array;
  truth: number;
  completeness: number;
}

export interface BetaFit {
  b0: number;
  b1: number;
  n: number;
  /** Mean NLL of the truth at β = 1 and after the fit. */
  nllBefore: number;
  nllAfter: number;
  iterations: number;
}

const RIDGE = 1e-3;

export function shiftCase(s: { scores: ArrayLike<number>; truth: number; completeness: number }): ShiftedCase {
  let max = -Infinity;
  for (let i = 0; i < s.scores.length; i++) if (s.scores[i]! > max) max = s.scores[i]!;
  const d = new Float64Array(s.scores.length);
  for (let i = 0; i < d.length; i++) d[i] = s.scores[i]! - max;
  return { d, truth: s.truth, completeness: s.completeness };
}

/** One case's NLL of the truth, and the gradient and curvature of it in β (E_p[z] − z_y, Var_p(z)). */
interface Terms { nll: number; g: number; h: number }

/** scratch holds exp(β·d) between the two passes (one buffer for every case of a fit). */
function terms(c: ShiftedCase, beta: number, scratch: Float64Array, out: Terms): Terms {
  const d = c.d;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    const e = Math.exp(beta * d[i]!);
    scratch[i] = e;
    sum += e;
  }
  let mean = 0;
  let sq = 0;
  for (let j = 0; j < d.length; j++) {
    const p = scratch[j]! / sum;
    const z = d[j]!;
    mean += p * z;
    sq += p * z * z;
  }
  out.nll = -Math.log(Math.max(scratch[c.truth]! / sum, 1e-300));
  out.g = mean - d[c.truth]!;
  out.h = Math.max(0, sq - mean * mean);
  return out;
}

/** Mean NLL of the truth with β per case from `beta` (summed in case order, as meanNll does). */
export function meanShiftedNll(cases: readonly ShiftedCase[], beta: (c: number) => number): number {
  if (cases.length === 0) return 0;
  const scratch = new Float64Array(maxLength(cases));
  const t: Terms = { nll: 0, g: 0, h: 0 };
  let a = 0;
  for (const c of cases) a += terms(c, beta(c.completeness), scratch, t).nll;
  return a / cases.length;
}

/** Objective (NLL + ridge on b1), gradient and Hessian at x, in one pass over the cases. */
interface At { f: number; g0: number; g1: number; h00: number; h01: number; h11: number }

export function fitBeta(cases: readonly ShiftedCase[], opts: { maxIterations?: number } = {}): BetaFit {
  const n = cases.length;
  const before = meanShiftedNll(cases, () => inverseTemperature(undefined, 0));
  if (n === 0) return { b0: 1, b1: 0, n, nllBefore: before, nllAfter: before, iterations: 0 };
  const scratch = new Float64Array(maxLength(cases));
  const t: Terms = { nll: 0, g: 0, h: 0 };
  const at = (x: readonly [number, number]): At => {
    let nll = 0, g0 = 0, g1 = 2 * RIDGE * n * x[1], h00 = 0, h01 = 0, h11 = 2 * RIDGE * n;
    for (const s of cases) {
      const c = s.completeness;
      terms(s, clampBeta(x, c), scratch, t);
      nll += t.nll;
      g0 += t.g; g1 += t.g * c;
      h00 += t.h; h01 += t.h * c; h11 += t.h * c * c;
    }
    return { f: nll + RIDGE * n * x[1] * x[1], g0, g1, h00, h01, h11 };
  };
  let b: [number, number] = [1, 0];
  let cur = at(b);
  let it = 0;
  for (; it < (opts.maxIterations ?? 50); it++) {
    const { g0, g1, h00, h01, h11 } = cur;
    const det = h00 * h11 - h01 * h01;
    // A singular Hessian (all cases certain) falls back to a gradient step.
    const step: [number, number] = det > 1e-12 ? [(h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det] : [g0 / (n || 1), g1 / (n || 1)];
    let lr = 1;
    let next: [number, number] = [b[0] - step[0], b[1] - step[1]];
    // The accepted point's gradient comes with its objective: the next step needs no pass of its own.
    let cand = at(next);
    while (cand.f > cur.f && lr > 1e-6) {
      lr /= 2;
      next = [b[0] - lr * step[0], b[1] - lr * step[1]];
      cand = at(next);
    }
    if (cand.f > cur.f) break;
    const done = cur.f - cand.f < 1e-9 * Math.max(1, Math.abs(cur.f));
    b = next;
    cur = cand;
    if (done) break;
  }
  const fitted: KindTemperature = { b0: b[0], b1: b[1] };
  return { b0: b[0], b1: b[1], n, nllBefore: before, nllAfter: meanShiftedNll(cases, (c) => inverseTemperature(fitted, c)), iterations: it };
}

/** β as applied (clamped), so the fit optimises what the query side will compute. */
export function clampBeta(b: readonly [number, number], c: number): number {
  return Math.min(MAX_BETA, Math.max(MIN_BETA, b[0] + b[1] * c));
}

function maxLength(cases: readonly ShiftedCase[]): number {
  let m = 0;
  for (const c of cases) if (c.d.length > m) m = c.d.length;
  return m;
}
