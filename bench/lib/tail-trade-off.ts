/**
 * The truth under 1% against the rest (issue 48, bench/calibration-tail.ts --trade-off): a broad
 * reading mixed in after a calibration, p' = (1 − w)·p + w·softmax(β_w·z). Both parts increase with
 * the raw score z, so the order never changes; the weight lifts low-ranked diseases (a truth the
 * reading put 12th gets its share back) at the cost of the first ones. The weight is either fitted
 * by the NLL of the fit cases, w(c) = σ(d0 + d1·c) (a tail floor that depends on how complete the
 * description is, not a constant), or forced, to show the price of a lower truth under 1%.
 */
import type { CalibrationSample } from '../../src/calibration/fit-temperature.js';
import { nelderMead } from '../../src/calibration/nelder-mead.js';
import { scaledSoftmax } from '../../src/calibration/temperature.js';

export const TRADE_OFF_BETAS = [0.03, 0.1, 0.3];
export const TRADE_OFF_WEIGHTS = [0.02, 0.05, 0.1, 0.2, 0.3];

type ProbsOf = (s: CalibrationSample) => Float64Array;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export interface TailWeight { d0: number; d1: number; nllBefore: number; nllAfter: number }

export const tailWeight = (w: Pick<TailWeight, 'd0' | 'd1'>, c: number): number => sigmoid(w.d0 + w.d1 * Math.min(1, Math.max(0, c)));

export function withTail(base: ProbsOf, weight: (s: CalibrationSample) => number, betaW: number): ProbsOf {
  return (s) => {
    const p = base(s);
    const broad = scaledSoftmax(s.scores, betaW);
    const w = weight(s);
    return Float64Array.from(p, (x, i) => (1 - w) * x + w * broad[i]!);
  };
}

/** d0, d1 by Nelder-Mead on the mean NLL of the truth over the fit cases (from w ≈ 0.5%). */
export function fitTailWeight(samples: readonly CalibrationSample[], base: ProbsOf, betaW: number): TailWeight {
  const pt = samples.map((s) => base(s)[s.truth]!);
  const bt = samples.map((s) => scaledSoftmax(s.scores, betaW)[s.truth]!);
  const nll = (x: readonly number[]) => samples.reduce((a, s, i) => {
    const w = tailWeight({ d0: x[0]!, d1: x[1]! }, s.completeness);
    return a - Math.log(Math.max(1e-300, (1 - w) * pt[i]! + w * bt[i]!));
  }, 0) / samples.length;
  const x = nelderMead(nll, [-5, 0], 1, 200);
  return { d0: x[0]!, d1: x[1]!, nllBefore: pt.reduce((a, p) => a - Math.log(Math.max(1e-300, p)), 0) / samples.length, nllAfter: nll(x) };
}
