/**
 * The first disease's map by completeness band (issue 48): the top-label map (top-label.ts) or
 * the top-odds map (top-odds.ts), fitted once per band of the description's completeness
 * instead of once for every case of a kind (histogram binning by a context variable: Gupta &
 * Ramdas, ICLR 2022, §4, calibrate within groups the map can tell apart).
 *
 * Why: the coded cases a build fits on are the chief complaint alone (completeness ~0.05), a
 * partial record and the whole record. One map over all of them is shaped by the near-certain
 * whole records, and it left the chief complaint (the interactive first turn) 2-3 points
 * underconfident in-sample (docs/eval.md, "@0 at the goal's edge"). A band per completeness
 * level lets the first turn have a map of its own.
 *
 * The bands are equal-count quantiles of the fit cases' completeness (no hand-set edges), each
 * holding at least `minBand` cases. Within a band the map is increasing, so the order of a
 * case's differential never changes (each map keeps the first disease first and rescales the
 * rest by one factor); across cases the first disease's probability now also reflects how
 * complete the description was.
 */
import { applyTopLabel, type TopLabelMap } from './top-label.js';
import { applyTopOdds, type TopOddsMap } from './top-odds.js';

export interface TopBand {
  /** The band holds completeness ≤ upTo (after the previous band's); null: everything above. */
  upTo: number | null;
  topLabel?: TopLabelMap | null;
  topOdds?: TopOddsMap | null;
}

/**
 * Completeness values within this relative distance of each other are one level, never split
 * between bands. Completeness is counted in a KG's mean findings per record, and that unit
 * differs between the cross-fit's fit KGs and the served KG by the records each holds: the
 * chief complaint's one finding read 0.0542 to 0.0554 over the five fit KGs of the README build
 * and 0.0547 on the served one (docs/eval.md, 29 Nov night). An edge cut inside that spread put
 * the served first turn in the partial records' band (@0 ECE 0.071 instead of 0.035, offline).
 */
export const LEVEL_TOLERANCE = 0.05;

/**
 * Upper edges of `count` equal-count bands of the completeness values (the last band open), or
 * fewer when a band would hold under `minBand` cases (a band is never split inside one level,
 * LEVEL_TOLERANCE). Each edge sits halfway between its band's last value and the next band's
 * first, so a case read by another KG of the same source falls in the band its level did.
 * [] when no split is possible: one band.
 */
export function bandEdges(completeness: readonly number[], count: number, minBand: number): number[] {
  const c = [...completeness].sort((a, b) => a - b);
  const edges: number[] = [];
  let from = 0;
  for (let k = 1; k < count; k++) {
    // The k-th quantile's level closes the band with every value within the tolerance above it.
    let i = Math.max(from + minBand, Math.ceil((k * c.length) / count)) - 1;
    if (i >= c.length) break;
    const level = c[i]! * (1 + LEVEL_TOLERANCE);
    while (i + 1 < c.length && c[i + 1]! <= level) i++;
    if (c.length - (i + 1) < minBand) break;
    edges.push((c[i]! + c[i + 1]!) / 2);
    from = i + 1;
  }
  return edges;
}

/** Index of the band of completeness `c` (edges as bandEdges gives them). */
export function bandIndex(edges: readonly number[], c: number): number {
  let i = 0;
  while (i < edges.length && c > edges[i]!) i++;
  return i;
}

/** The band of completeness `c`. */
export function bandOf(bands: readonly TopBand[], c: number): TopBand | undefined {
  return bands.find((b) => b.upTo === null || c <= b.upTo);
}

/** Applies the map of the case's band in place (probs: the calibrated posterior; scores: the raw ones it came from). */
export function applyTopBands(probs: Float64Array, scores: ArrayLike<number>, bands: readonly TopBand[], completeness: number): void {
  const band = bandOf(bands, completeness);
  if (band?.topOdds) applyTopOdds(probs, scores, band.topOdds);
  else if (band?.topLabel) applyTopLabel(probs, band.topLabel);
}

/** Bands from their edges and one map per band (null: that band keeps the calibrated probability). */
export function topBands<M>(edges: readonly number[], maps: readonly (M | null)[], key: 'topLabel' | 'topOdds'): TopBand[] {
  return maps.map((m, i) => ({ upTo: i < edges.length ? edges[i]! : null, [key]: m }));
}
