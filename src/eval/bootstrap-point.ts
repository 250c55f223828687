/**
 * The calibration metrics of one bootstrap resample (calibration-metrics.ts), given as the
 * indices of the cases drawn, computed from what every resample shares: each case's top-1
 * probability, hit, log-loss and Brier term once, and the cases' order by top-1 probability
 * once, so a resample's AUROC counts its draws along that order instead of sorting them
 * (issue 49: 1,000 sorts per metric set were most of the eval's report). Sums run in the
 * resample's order and the rank sum adds each tie group's mean rank once per positive, as
 * `point` over the drawn cases does: the figures are the same to the bit.
 */
import type { ProbabilityCase } from './calibration-metrics.js';

/** Probabilities are clipped here for the log-loss (a probability of exactly 0 would be ∞); calibration-metrics.ts uses it too. */
export const LOG_FLOOR = 1e-6;

export interface BootstrapPoint {
  ece: number;
  brier: number;
  log_loss: number;
  auroc: number | null;
  truth_under_1pct: number;
}

export function bootstrapPoints(cases: readonly ProbabilityCase[], bins = 10): (drawn: Int32Array) => BootstrapPoint {
  const n = cases.length;
  const top = Float64Array.from(cases, (c) => c.top);
  const logLoss = Float64Array.from(cases, (c) => -Math.log(Math.max(LOG_FLOOR, c.truth)));
  const order = Array.from(cases.keys()).sort((a, b) => top[a]! - top[b]!);
  // Tie groups of equal top-1 probability along that order: [start, end) into `order`.
  const groups: [number, number][] = [];
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && top[order[j]!] === top[order[i]!]) j++;
    groups.push([i, j]);
    i = j;
  }
  const times = new Int32Array(n);
  const binN = new Float64Array(bins);
  const binSum = new Float64Array(bins);
  const binHits = new Float64Array(bins);
  return (drawn) => {
    const m = drawn.length;
    times.fill(0);
    binN.fill(0);
    binSum.fill(0);
    binHits.fill(0);
    let brier = 0, ll = 0, under = 0, pos = 0;
    for (let k = 0; k < m; k++) {
      const i = drawn[k]!;
      const c = cases[i]!;
      times[i]!++;
      const b = Math.min(bins - 1, Math.floor(top[i]! * bins));
      binN[b]!++;
      binSum[b]! += top[i]!;
      if (c.correct) { binHits[b]!++; pos++; }
      brier += c.brier;
      ll += logLoss[i]!;
      if (c.truth < 0.01) under++;
    }
    let ece = 0;
    if (m > 0) for (let b = 0; b < bins; b++) ece += binN[b] === 0 ? 0 : (binN[b]! / m) * Math.abs(binHits[b]! / binN[b]! - binSum[b]! / binN[b]!);
    return { ece, brier: brier / Math.max(1, m), log_loss: ll / Math.max(1, m), auroc: rankAuroc(pos, m - pos), truth_under_1pct: under / Math.max(1, m) };
  };

  /** auroc.ts's rank-sum over the drawn cases, walked along the shared order. */
  function rankAuroc(pos: number, neg: number): number | null {
    if (pos === 0 || neg === 0) return null;
    let at = 0;
    let rankSumPos = 0;
    for (const [s, e] of groups) {
      let size = 0, hits = 0;
      for (let g = s; g < e; g++) {
        const i = order[g]!;
        size += times[i]!;
        if (cases[i]!.correct) hits += times[i]!;
      }
      if (size === 0) continue;
      const avgRank = (at + 1 + (at + size)) / 2; // ranks at+1..at+size share their mean
      for (let h = 0; h < hits; h++) rankSumPos += avgRank;
      at += size;
    }
    return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
  }
}
