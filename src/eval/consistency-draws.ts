/**
 * Consistency resampling (Bröcker & Smith, Weather and Forecasting 2007): the ECE a perfectly
 * calibrated system shows on the same top-1 probabilities by sampling alone. Each draw makes
 * every case right with its own top-1 probability (`rnd() < top`, in case order) and takes the
 * draw's ECE (calibration-metrics.ts `expectedCalibrationError`). What the draws share (each
 * case's bin, each bin's count and summed probability) is computed once and a draw only counts
 * its hits per bin (issue 49: a copy of every case per draw was most of the eval's calibration
 * report); the bins are added in the same order with the same arithmetic, so the figures are
 * the same to the bit.
 */
export interface CalibratedDraws {
  /** Mean ECE over the draws (`ece_if_calibrated`). */
  meanEce: number;
  /** Share of draws whose ECE is at least `measured` (`ece_consistency_p`). */
  atLeastShare: number;
}

export function calibratedDraws(tops: readonly number[], opts: { draws: number; measured: number; rnd: () => number; bins?: number }): CalibratedDraws {
  const bins = opts.bins ?? 10;
  const n = tops.length;
  const top = Float64Array.from(tops);
  const binOf = Int32Array.from(tops, (t) => Math.min(bins - 1, Math.floor(t * bins)));
  const count = new Float64Array(bins);
  const sum = new Float64Array(bins);
  for (let i = 0; i < n; i++) {
    count[binOf[i]!]!++;
    sum[binOf[i]!]! += top[i]!;
  }
  const hits = new Float64Array(bins);
  let total = 0;
  let atLeast = 0;
  for (let r = 0; r < opts.draws; r++) {
    hits.fill(0);
    for (let i = 0; i < n; i++) if (opts.rnd() < top[i]!) hits[binOf[i]!]!++;
    let ece = 0;
    if (n > 0) for (let b = 0; b < bins; b++) ece = ece + (count[b] === 0 ? 0 : (count[b]! / n) * Math.abs(hits[b]! / count[b]! - sum[b]! / count[b]!));
    total += ece;
    if (ece >= opts.measured - 1e-12) atLeast++;
  }
  return { meanEce: total / opts.draws, atLeastShare: atLeast / opts.draws };
}
