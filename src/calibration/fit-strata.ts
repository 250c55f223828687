/**
 * Stratified calibration by completeness (issue 48): the kind's fit cases split into equal-count
 * bands of completeness, each band calibrated on its own cases by the whole fit (β(c), the tail,
 * the broad reading, the first disease's map, each kept by cross-fitting, or the raw posterior
 * where no fit beats it: fit-temperature.ts). Calibration within groups the map can tell apart:
 * Gupta & Ramdas, "Top-label calibration and multiclass-to-binary reductions", ICLR 2022, §4.
 *
 * Why: a coded fit holds three kinds of description at once, the chief complaint alone (the
 * interactive first turn, completeness ~0.05), a partial and a whole record, and they err in
 * different directions (raw, on the README build's held-out patients: 37.5% shown for 34.7% right,
 * 98.1% for 90.3%, 99.6% for 99.1%). One β(c) and one map over all of them were shaped by the
 * near-certain records and left the first turn underconfident (31.5% shown, @0 ECE 0.050); the map
 * per band alone (top-bands.ts) still shared one β(c), which flattens whole records to β 0.11 and
 * left them underconfident in a band shared with fuller partial records (96.1% for 99.1%).
 * One whole calibration per band: @0 0.034, partial 0.019, records 0.009 (docs/eval.md, 29 Nov night).
 *
 * A band needs `minBand` cases (fit-temperature.ts MIN_BAND_CASES: its accuracy to a 2.5-point
 * standard error), so a fit on fewer than twice that stays one calibration for the kind.
 */
import { bandEdges, bandIndex } from './top-bands.js';
import { fitCalibrationParams, meanNll, MIN_BAND_CASES, TAIL_GRID, type CalibrationSample, type TemperatureFit } from './fit-temperature.js';
import type { KindTemperature, Stratum } from './temperature.js';

/** As many equal-count bands as hold `minBand` cases each (histogram binning with a floor on a bin's count). */
export const bandCount = (cases: number, minBand: number): number => Math.max(1, Math.floor(cases / minBand));

/** The bands' calibrations, each fitted by `fitBand` on its own cases; null when the cases do not split into two bands of `minBand`. */
export function fitStrata(samples: readonly CalibrationSample[], minBand: number, fitBand: (band: readonly CalibrationSample[]) => TemperatureFit): Stratum[] | null {
  const edges = bandEdges(samples.map((s) => s.completeness), bandCount(samples.length, minBand), minBand);
  if (edges.length === 0) return null;
  const groups: CalibrationSample[][] = Array.from({ length: edges.length + 1 }, () => []);
  for (const s of samples) groups[bandIndex(edges, s.completeness)]!.push(s);
  return groups.map((g, i) => ({ upTo: i < edges.length ? edges[i]! : null, params: paramsOf(fitBand(g)) }));
}

/** The fit's parameters without its bookkeeping (n, NLLs and iterations stay in the band's own fit). */
function paramsOf(f: TemperatureFit): KindTemperature {
  return { b0: f.b0, b1: f.b1, tail: f.tail ?? null, mix: f.mix ?? null, topLabel: f.topLabel ?? null, ...(f.topOdds ? { topOdds: f.topOdds } : {}), ...(f.topBands ? { topBands: f.topBands } : {}) };
}

/** A kind's fit as the build makes it: one calibration per completeness band where the cases split into bands of MIN_BAND_CASES, else one for the kind. */
export function fitKindCalibration(samples: readonly CalibrationSample[], o: { minBand?: number } = {}): TemperatureFit {
  // A band's own fit maps its first disease once (no bands within a band).
  const strata = fitStrata(samples, o.minBand ?? MIN_BAND_CASES, (band) => fitCalibrationParams(band, TAIL_GRID, true, { minBandCases: Infinity }));
  if (!strata) return fitCalibrationParams(samples);
  const p: KindTemperature = { b0: 1, b1: 0, tail: null, mix: null, strata };
  return { ...p, n: samples.length, nllBefore: meanNll(samples, undefined), nllAfter: meanNll(samples, p), iterations: 0 };
}
