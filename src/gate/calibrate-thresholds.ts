/**
 * FIND's θ1 0.6 / θ2 0.3 were tuned for its labels and data; label shares differ per
 * diagnoser and dataset (on DDXPlus with an offline kNN diagnoser, A is rare and I_norm rarely
 * reaches 0.6). This picks thresholds from dev data instead — pairs of (I_norm, was the direct
 * answer correct):
 *   θ1 = the lowest score such that direct answers at or above it are correct at least
 *        `directAccuracy` of the time (with at least `minSupport` of them);
 *   θ2 = the highest score such that answers below it are correct at most `warnAccuracy`
 *        of the time (with at least `minSupport` of them), capped at θ1.
 * Null when no score qualifies (then keep the configured value).
 */
export interface CalibrationTargets {
  directAccuracy: number;
  warnAccuracy: number;
  minSupport: number;
}

export const DEFAULT_CALIBRATION: CalibrationTargets = { directAccuracy: 0.9, warnAccuracy: 0.5, minSupport: 10 };

export interface CalibratedThresholds {
  theta1: number | null;
  theta2: number | null;
  /** Share of the dev inputs that would be answered directly with theta1. */
  directShare: number;
}

export function calibrateThresholds(samples: readonly { score: number; correct: boolean }[], targets: Partial<CalibrationTargets> = {}): CalibratedThresholds {
  const t = { ...DEFAULT_CALIBRATION, ...targets };
  const sorted = [...samples].sort((a, b) => a.score - b.score);
  const n = sorted.length;
  const correctAbove = new Array<number>(n + 1).fill(0); // correct answers among sorted[i..]
  for (let i = n - 1; i >= 0; i--) correctAbove[i] = correctAbove[i + 1]! + (sorted[i]!.correct ? 1 : 0);
  let theta1: number | null = null;
  let theta2: number | null = null;
  for (let i = 0; i < n; i++) {
    if (i > 0 && sorted[i]!.score === sorted[i - 1]!.score) continue; // thresholds sit at distinct scores
    const above = n - i;
    if (above >= t.minSupport && correctAbove[i]! / above >= t.directAccuracy) {
      theta1 = sorted[i]!.score;
      break;
    }
  }
  for (let i = n - 1; i >= 1; i--) {
    if (sorted[i]!.score === sorted[i - 1]!.score) continue;
    const below = i;
    if (below >= t.minSupport && (correctAbove[0]! - correctAbove[i]!) / below <= t.warnAccuracy) {
      theta2 = sorted[i]!.score;
      break;
    }
  }
  if (theta1 !== null && theta2 !== null) theta2 = Math.min(theta2, theta1);
  const directShare = theta1 === null || n === 0 ? 0 : sorted.filter((s) => s.score >= theta1!).length / n;
  return { theta1, theta2, directShare };
}
