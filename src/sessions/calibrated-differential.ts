/**
 * The calibration of the build (src/calibration, issue 26) applied to a consultation's posterior
 * after answers. The first turn shows diagnose's differential, already calibrated; later turns
 * are the follow-up engine's Bayes update of diagnose's *uncalibrated* reading (so the questions
 * asked and the ranking are the measured ones, docs/followups.md), and shown as such they were
 * overconfident (DDXPlus held-out patients, @1: mean top-1 probability 83.0% for 77.3% right).
 * Here the same monotone map diagnose uses rescales that posterior for display: the log of the
 * posterior as the scores, the kind of the first description, and the description's
 * completeness grown by the answers. Nothing is reordered, so accuracy at every turn is unchanged.
 */
import { calibratedPosterior, inputKind, type PosteriorCalibration } from '../calibration/temperature.js';

export interface SessionCalibration {
  posterior: PosteriorCalibration;
  /** A typical training record's reported findings (the snapshot's), the unit of completeness. */
  meanFeaturesPerRecord: number;
}

/** log p floored: a disease the answers ruled out (p = 0) stays last, and finite. */
const LOG_FLOOR = Math.log(1e-300);

export function calibrateSessionPosterior(
  probs: Float64Array,
  cal: SessionCalibration | null,
  at: { description: { text: string | null }; findingsKnown: number },
): Float64Array {
  const params = cal?.posterior.kinds[inputKind(at.description)];
  if (!cal || !params) return probs;
  const completeness = cal.meanFeaturesPerRecord > 0 ? Math.min(1, at.findingsKnown / cal.meanFeaturesPerRecord) : 1;
  const scores = Float64Array.from(probs, (p) => (p > 0 ? Math.log(p) : LOG_FLOOR));
  return calibratedPosterior(scores, params, completeness).probs;
}
