/**
 * The differential a question is scored against when the posterior has collapsed. A long note
 * read as many present findings leaves one disease above the information-gain ranker's live
 * threshold (minProbability): every question's gain is then zero (or float noise, ~1e-17), and
 * the ranking fell back to question ids ("Recent viral infection?", "Oral antibiotics for an
 * ear infection?" for a COPD note), while the clinician sees a calibrated differential with
 * real runners-up. Scored instead against the same posterior tempered, p'(d) ∝ p(d)^(1/T), with
 * T the smallest (≥ 1) that puts the k-th likeliest disease at `ratio` of the first, over the k
 * likeliest only (the differential the clinician reads; the rest get 0, which also bounds the
 * ranking's cost to k live diseases): their order is kept, and the questions aim at what separates
 * the top from its runners-up, weighed by how far behind each is. Not a MedRAG or FIND formula
 * (their σ and gain are undefined on a one-disease differential).
 */
export const NEGLIGIBLE_GAIN = 1e-9;

/** The runners-up a collapsed posterior is tempered to keep live: the differential's ten, the 10th at 1% of the first. */
export const COLLAPSED_TEMPERING = { k: 10, ratio: 0.01 } as const;

export function flattenPosterior(p: Float64Array, opts: { k: number; ratio: number }): Float64Array | null {
  // The k likeliest possible diseases, ties by index (the differential's order).
  const kept = [...p.keys()].filter((i) => p[i]! > 0).sort((a, b) => p[b]! - p[a]! || a - b).slice(0, opts.k);
  if (kept.length < 2) return null;
  const top = Math.log(p[kept[0]!]!);
  const t = Math.max(1, (top - Math.log(p[kept[kept.length - 1]!]!)) / Math.log(1 / opts.ratio));
  const out = new Float64Array(p.length);
  let z = 0;
  for (const i of kept) z += out[i] = Math.exp((Math.log(p[i]!) - top) / t);
  for (const i of kept) out[i]! /= z;
  return out;
}
