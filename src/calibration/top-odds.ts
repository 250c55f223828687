/**
 * Top-odds stage: the first disease's probability from a logistic map of the RAW posterior's log-odds, so its order across cases (the top-1 AUROC) is the uncalibrated one.
 *
 * Why: a temperature (temperature.ts) reshapes each case's posterior by its own gaps and
 * completeness, so a right and a wrong answer can swap places in confidence and the top-1
 * probability separates them less well than before (issue 26 asks that it never does). Platt
 * scaling (Platt 1999) of the raw log-odds of the first disease,
 *
 *   L = z_1 − log Σ_{j≠1} exp(z_j)          (raw scores z, first disease 1: L = logit of its raw posterior)
 *   p₁' = σ(a · L + b),   a > 0              (fitted by logistic regression of "was the first right")
 *
 * is strictly increasing in L, so it keeps that order exactly; every other disease keeps its
 * calibrated share of the rest, rescaled to 1 − p₁' (the within-case order never changes). The
 * fit uses it only where the calibrated first-disease probability separated right from wrong
 * answers worse than the raw one on the calibration cases (fit-temperature.ts).
 */
export interface TopOddsMap {
  a: number;
  b: number;
}

/** a ≥ this: the map stays strictly increasing. */
export const MIN_TOP_ODDS_SLOPE = 1e-3;

/** Index of the first disease and its raw log-odds L (exact, no saturation at probabilities near 1). */
export function rawTopLogOdds(scores: ArrayLike<number>): { top: number; logOdds: number } {
  let top = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[top]!) top = i;
  let max = -Infinity;
  for (let i = 0; i < scores.length; i++) if (i !== top && scores[i]! > max) max = scores[i]!;
  if (max === -Infinity) return { top, logOdds: Infinity };
  let sum = 0;
  for (let i = 0; i < scores.length; i++) if (i !== top) sum += Math.exp(scores[i]! - max);
  return { top, logOdds: scores[top]! - max - Math.log(sum) };
}

const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

export function topOddsValue(m: TopOddsMap, logOdds: number): number {
  return logOdds === Infinity ? 1 : sigmoid(m.a * logOdds + m.b);
}

/** Logistic regression of `right` on L by Newton's method with a backtracking line search (convex; a small ridge keeps it solvable when every case is right). */
export function fitTopOdds(pairs: readonly { logOdds: number; right: boolean }[]): TopOddsMap | null {
  const xs = pairs.filter((p) => Number.isFinite(p.logOdds));
  if (xs.length === 0) return null;
  const ridge = 1e-3 * xs.length;
  // −log σ(t) and −log(1 − σ(t)), stable for large |t|
  const softplus = (t: number) => (t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t)));
  const loss = (a: number, b: number) => xs.reduce((acc, p) => acc + softplus((p.right ? -1 : 1) * (a * p.logOdds + b)), 0) + (ridge / 2) * ((a - 1) ** 2 + b * b);
  let a = 1;
  let b = 0;
  let f = loss(a, b);
  for (let it = 0; it < 100; it++) {
    let ga = ridge * (a - 1), gb = ridge * b, haa = ridge, hab = 0, hbb = ridge;
    for (const p of xs) {
      const q = sigmoid(a * p.logOdds + b);
      const r = q - (p.right ? 1 : 0);
      const w = q * (1 - q);
      ga += r * p.logOdds; gb += r;
      haa += w * p.logOdds * p.logOdds; hab += w * p.logOdds; hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 0)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    let step = 1;
    let next = loss(a - da, b - db);
    while (next > f && step > 1e-8) {
      step /= 2;
      next = loss(a - step * da, b - step * db);
    }
    if (next > f) break;
    a -= step * da;
    b -= step * db;
    const done = f - next < 1e-12 * Math.max(1, f);
    f = next;
    if (done) break;
  }
  if (a >= MIN_TOP_ODDS_SLOPE) return { a, b };
  // No positive slope (the raw log-odds do not separate right from wrong here): the smallest
  // slope, and the intercept refitted for it, so the mean probability still matches the accuracy.
  a = MIN_TOP_ODDS_SLOPE;
  for (let it = 0; it < 100; it++) {
    let g = ridge * b, h = ridge;
    for (const p of xs) {
      const q = sigmoid(a * p.logOdds + b);
      g += q - (p.right ? 1 : 0);
      h += q * (1 - q);
    }
    const d = g / h;
    b -= d;
    if (Math.abs(d) < 1e-12) break;
  }
  return { a, b };
}

/**
 * Applies the map in place: `probs` is the calibrated posterior, `scores` the raw scores it came
 * from (same first disease: the calibration never reorders). p₁' is kept at or above the rescaled second.
 */
export function applyTopOdds(probs: Float64Array, scores: ArrayLike<number>, m: TopOddsMap): void {
  if (probs.length < 2) return;
  const { top, logOdds } = rawTopLogOdds(scores);
  const rest = 1 - probs[top]!;
  let p2 = 0;
  for (let i = 0; i < probs.length; i++) if (i !== top && probs[i]! > p2) p2 = probs[i]!;
  // p₁' ≥ (p₂ / rest) · (1 − p₁')  ⇔  p₁' ≥ p₂ / (rest + p₂); a hair above, as in top-label.ts
  const floor = rest > 0 ? (p2 / (rest + p2)) * (1 + 1e-12) : 0;
  const mapped = Math.min(1 - 1e-12, Math.max(floor, topOddsValue(m, logOdds)));
  // The rest's shares: calibrated ones, or (all rounded to 0) the raw scores' own.
  const shares = rest > 0 ? Float64Array.from(probs, (p) => p / rest) : otherShares(scores, top);
  for (let i = 0; i < probs.length; i++) probs[i] = i === top ? mapped : shares[i]! * (1 - mapped);
}

function otherShares(scores: ArrayLike<number>, top: number): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < scores.length; i++) if (i !== top && scores[i]! > max) max = scores[i]!;
  const out = Float64Array.from(scores, (z, i) => (i === top ? 0 : Math.exp(z - max)));
  const sum = out.reduce((a, v) => a + v, 0);
  for (let i = 0; i < out.length; i++) out[i]! /= sum;
  return out;
}
