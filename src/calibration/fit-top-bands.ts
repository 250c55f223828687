/**
 * Fits the first disease's map per completeness band (top-bands.ts) on held-out cases: the
 * top-label map (isotonic, top-label.ts) of each band's calibrated first probability, or the
 * top-odds map (logistic, top-odds.ts) of each band's raw log-odds. fit-temperature.ts offers
 * the banded top-label map as a candidate beside the kind-wide one (kept only if it lowers the
 * NLL of cases its fit did not see) and the banded top-odds map where the AUROC guard applies.
 */
import type { CalibrationSample } from './fit-temperature.js';
import { calibratedPosterior, type KindTemperature } from './temperature.js';
import { bandEdges, bandIndex, topBands, type TopBand } from './top-bands.js';
import { fitTopLabel } from './top-label.js';
import { fitTopOdds, rawTopLogOdds } from './top-odds.js';

/** Equal-count completeness bands tried (tertiles: the chief complaint, partial and whole records of a coded fit). */
export const BAND_COUNT = 3;

/** Cases of `samples` by band of their completeness. */
function byBand<T>(samples: readonly CalibrationSample[], edges: readonly number[], f: (s: CalibrationSample) => T): T[][] {
  const out: T[][] = Array.from({ length: edges.length + 1 }, () => []);
  for (const s of samples) out[bandIndex(edges, s.completeness)]!.push(f(s));
  return out;
}

/**
 * One isotonic map per band of the first disease's probability under `p` (its own first-disease
 * stage left out), bands of at least `minBand` cases, each map's blocks of at least `minBlock`
 * cases and a tenth of its band; null when the cases do not split into bands or no band has enough.
 */
export function fitBandedTopLabel(samples: readonly CalibrationSample[], p: KindTemperature, o: { minBand: number; minBlock: number; count?: number }): TopBand[] | null {
  const edges = bandEdges(samples.map((s) => s.completeness), o.count ?? BAND_COUNT, o.minBand);
  if (edges.length === 0) return null;
  const base: KindTemperature = { ...p, topLabel: null, topOdds: null, topBands: null };
  const groups = byBand(samples, edges, (s) => {
    const probs = calibratedPosterior(s.scores, base, s.completeness).probs;
    let top = 0;
    for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[top]!) top = i;
    return { p: probs[top]!, right: top === s.truth };
  });
  const maps = groups.map((g) => fitTopLabel(g, Math.max(o.minBlock, Math.round(g.length / 10))));
  return maps.some((m) => m !== null) ? topBands(edges, maps, 'topLabel') : null;
}

/** One logistic map of the raw log-odds per band (the bands' edges given); null when no band has a fit. */
export function fitBandedTopOdds(samples: readonly CalibrationSample[], edges: readonly number[]): TopBand[] | null {
  const groups = byBand(samples, edges, (s) => {
    const { top, logOdds } = rawTopLogOdds(s.scores);
    return { logOdds, right: top === s.truth };
  });
  const maps = groups.map((g) => fitTopOdds(g));
  return maps.some((m) => m !== null) ? topBands(edges, maps, 'topOdds') : null;
}

/** The edges of bands already fitted (top-bands.ts stores each band's upper edge; the last is open). */
export function edgesOf(bands: readonly TopBand[]): number[] {
  return bands.flatMap((b) => (b.upTo === null ? [] : [b.upTo]));
}
