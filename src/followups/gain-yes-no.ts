/**
 * Expected posterior entropy of a yes/no question at the cost of the diseases that have shown its
 * feature (issue 29), exact. With y_i = P(yes | i) and the live posterior p_i, each answer a
 * contributes mass_a · H(D | a) = −Σ_i x_i log x_i + m_a log m_a, x_i = p_i · P(a | i),
 * m_a = Σ_i x_i (information-gain.ts). A live disease without an edge to the feature answers
 * with its unseen rate u_i = α / (n_d + 2α), so the sums over every live disease are taken once
 * per ranking with u_i (`YesNoBaseline`) and each question only corrects them at its own edges:
 * O(edges) instead of O(live diseases), the difference between 700 ms and a few ms per turn at
 * 1,000 diagnoses once answers spread the posterior (docs/benchmarks.md).
 */
import type { FollowupModel } from './model.js';

export interface YesNoBaseline {
  /** 1 at live disease indices. */
  live: Uint8Array;
  /** Σ x and Σ x log x over the live diseases, for "yes" and "no", every disease at its unseen rate. */
  massYes: number;
  xlogxYes: number;
  massNo: number;
  xlogxNo: number;
}

function xlogx(x: number): number {
  return x > 0 ? x * Math.log(x) : 0;
}

/** m · H(D | a) = −Σ x log x + m log m. */
function term(mass: number, sum: number): number {
  return mass > 0 ? -sum + mass * Math.log(mass) : 0;
}

export function yesNoBaseline(model: FollowupModel, posterior: Float64Array, live: readonly number[]): YesNoBaseline {
  const mask = new Uint8Array(posterior.length);
  let massYes = 0;
  let xlogxYes = 0;
  let massNo = 0;
  let xlogxNo = 0;
  for (const i of live) {
    mask[i] = 1;
    const u = model.bernoulliOfCount(0, i);
    const y = posterior[i]! * u;
    const n = posterior[i]! * (1 - u);
    massYes += y;
    xlogxYes += xlogx(y);
    massNo += n;
    xlogxNo += xlogx(n);
  }
  return { live: mask, massYes, xlogxYes, massNo, xlogxNo };
}

/** Σ_a m_a · H(D | a) for the yes/no question of `featureId`. */
export function expectedEntropyYesNo(model: FollowupModel, posterior: Float64Array, base: YesNoBaseline, featureId: string): number {
  let { massYes, xlogxYes, massNo, xlogxNo } = base;
  const row = model.nonzeroCounts(featureId);
  if (row) {
    for (let k = 0; k < row.idx.length; k++) {
      const i = row.idx[k]!;
      if (base.live[i] !== 1) continue;
      const p = posterior[i]!;
      const u = model.bernoulliOfCount(0, i);
      const y = model.bernoulliOfCount(row.val[k]!, i);
      massYes += p * (y - u);
      xlogxYes += xlogx(p * y) - xlogx(p * u);
      massNo += p * (u - y);
      xlogxNo += xlogx(p * (1 - y)) - xlogx(p * (1 - u));
    }
  }
  return term(massYes, xlogxYes) + term(massNo, xlogxNo);
}
