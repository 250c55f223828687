/**
 * I_norm (FIND eq. 3) is a density: Σ w(label) / (α·n). FIND scores long clinical notes; on a
 * one-sentence input the density is that sentence's weight alone, so a single useful sentence
 * ("Do you have a fever? yes", label B) scores 0.5 — above every complete DDXPlus record
 * (≈0.3) — and a bare complaint would be answered directly. The pipeline therefore counts at
 * least `minSentences` units in the denominator: missing sentences weigh 0 (no information).
 *   I_norm' = Σ w(label) / (α · max(n, n_min))  =  I_norm · n / max(n, n_min)
 * Inputs of n_min sentences or more keep FIND's score unchanged. Build-time calibration
 * (kg-build/calibrate-gate.ts) scores with the same floor, so the thresholds fit it.
 */
export const MIN_DENSITY_SENTENCES = 5;

export function flooredDensity(score: number, sentences: number, minSentences = MIN_DENSITY_SENTENCES): number {
  return sentences >= minSentences ? score : (score * sentences) / minSentences;
}
