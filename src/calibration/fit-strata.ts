/**
 * Stratified calibration by level of completeness (issue 48): a level of completeness that many
 * fit cases share (the same number of findings: a kind of description, not a point on a
 * continuum) is calibrated on its own cases by the whole fit (β(c), the tail, the broad reading,
 * the first disease's map, each kept by cross-fitting, or the raw posterior where no fit beats
 * it: fit-temperature.ts); every other case keeps the kind's one calibration, fitted on all its
 * cases, whose β(c) follows the continuum. Calibration within groups the map can tell apart:
 * Gupta & Ramdas, "Top-label calibration and multiclass-to-binary reductions", ICLR 2022, §4.
 *
 * Why: a coded fit holds the chief complaint alone (the interactive first turn: one finding,
 * completeness ~0.055 for every patient), partial records and whole ones (many at completeness 1,
 * the cap), and they err in different directions (raw, on the README build's held-out patients:
 * 37.5% shown for 34.7% right, 98.1% for 90.3%, 99.6% for 99.1%). One β(c) and one map over all of
 * them were shaped by the records and left the first turn underconfident (31.5% shown, @0 ECE
 * 0.050); its own calibration shows 34.5% (@0 0.034, docs/eval.md, 29 Nov night). The stretch of
 * partial records keeps the kind's: a session after answers is calibrated at that completeness
 * (src/sessions/calibrated-differential.ts) and is surer than a partial record, and a fit of that
 * stretch alone flattened it (@3 ECE 0.018 -> 0.055; with the kind's: 0.025). Free text has every
 * length and no such level: it keeps one calibration.
 *
 * A level needs `minBand` cases (fit-temperature.ts MIN_BAND_CASES: its accuracy to a 2.5-point
 * standard error), so a default build's coded fit has one only with the held-out patients of
 * every fold (held-out-share.ts).
 */
import { bandIndex, LEVEL_TOLERANCE } from './top-bands.js';
import { fitCalibrationParams, meanNll, MIN_BAND_CASES, TAIL_GRID, type CalibrationSample, type TemperatureFit } from './fit-temperature.js';
import type { KindTemperature, Stratum } from './temperature.js';

/**
 * Edges around every level of completeness (values within LEVEL_TOLERANCE of its lowest) that
 * holds at least `minBand` cases, halfway to the neighbouring values; a stretch between levels
 * with fewer than `minBand` cases joins the stratum above it (the last one, the stratum below).
 */
export function levelEdges(completeness: readonly number[], minBand: number): number[] {
  const c = [...completeness].sort((a, b) => a - b);
  const cuts: number[] = []; // indices i: a stratum ends at c[i]
  for (let i = 0; i < c.length; ) {
    let j = i;
    while (j + 1 < c.length && c[j + 1]! <= c[i]! * (1 + LEVEL_TOLERANCE)) j++;
    if (j - i + 1 >= minBand) {
      if (i > 0) cuts.push(i - 1);
      if (j + 1 < c.length) cuts.push(j);
    }
    i = j + 1;
  }
  // Strata of fewer than minBand cases join the next (the last joins the one before).
  const kept: number[] = [];
  let from = 0;
  for (const k of cuts) {
    if (k + 1 - from < minBand) continue;
    kept.push(k);
    from = k + 1;
  }
  if (kept.length > 0 && c.length - from < minBand) kept.pop();
  return kept.map((k) => (c[k]! + c[k + 1]!) / 2);
}

/**
 * The strata's calibrations: a level's fitted by `fitLevel` on its own cases, every other stratum
 * keeping `kindWide` (the kind's one calibration, fitted on all its cases); null when no level of
 * `minBand` cases stands apart.
 */
export function fitStrata(samples: readonly CalibrationSample[], minBand: number, fitLevel: (level: readonly CalibrationSample[]) => TemperatureFit, kindWide: () => TemperatureFit): Stratum[] | null {
  const edges = levelEdges(samples.map((s) => s.completeness), minBand);
  if (edges.length === 0) return null;
  const groups: CalibrationSample[][] = Array.from({ length: edges.length + 1 }, () => []);
  for (const s of samples) groups[bandIndex(edges, s.completeness)]!.push(s);
  let wide: KindTemperature | null = null;
  return groups.map((g, i) => ({ upTo: i < edges.length ? edges[i]! : null, params: isLevel(g) ? paramsOf(fitLevel(g)) : (wide ??= paramsOf(kindWide())) }));
}

/** True when every case of the group is within LEVEL_TOLERANCE of its lowest completeness. */
function isLevel(g: readonly CalibrationSample[]): boolean {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of g) {
    lo = Math.min(lo, s.completeness);
    hi = Math.max(hi, s.completeness);
  }
  return hi <= lo * (1 + LEVEL_TOLERANCE);
}

/** The fit's parameters without its bookkeeping (n, NLLs and iterations stay in the band's own fit). */
function paramsOf(f: TemperatureFit): KindTemperature {
  return { b0: f.b0, b1: f.b1, tail: f.tail ?? null, mix: f.mix ?? null, topLabel: f.topLabel ?? null, ...(f.topOdds ? { topOdds: f.topOdds } : {}), ...(f.topBands ? { topBands: f.topBands } : {}) };
}

/** A kind's fit as the build makes it: one calibration per stratum where a level of MIN_BAND_CASES cases stands apart, else one for the kind. */
export function fitKindCalibration(samples: readonly CalibrationSample[], o: { minBand?: number; grid?: readonly (number | null)[]; mix?: boolean } = {}): TemperatureFit {
  const grid = o.grid ?? TAIL_GRID;
  const mix = o.mix ?? true;
  // A level's fit and the kind's one map the first disease once (no completeness bands within: the strata are those).
  const one = { minBandCases: Infinity };
  const strata = fitStrata(samples, o.minBand ?? MIN_BAND_CASES, (level) => fitCalibrationParams(level, grid, mix, one), () => fitCalibrationParams(samples, grid, mix, one));
  if (!strata) return fitCalibrationParams(samples, grid, mix);
  const p: KindTemperature = { b0: 1, b1: 0, tail: null, mix: null, strata };
  return { ...p, n: samples.length, nllBefore: meanNll(samples, undefined), nllAfter: meanNll(samples, p), iterations: 0 };
}
