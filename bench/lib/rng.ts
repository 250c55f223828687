import { seededRandom } from '../../src/util/rng.js';

/** Seeded PRNG (mulberry32): benchmark data and query samples are identical on every run. */
export type Rng = () => number;

export const mulberry32: (seed: number) => Rng = seededRandom;

export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/** Index drawn from non-negative weights with a precomputed cumulative sum. */
export function drawCumulative(rng: Rng, cumulative: Float64Array): number {
  const x = rng() * cumulative[cumulative.length - 1]!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function cumulativeOf(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let s = 0;
  weights.forEach((w, i) => (out[i] = s += w));
  return out;
}
