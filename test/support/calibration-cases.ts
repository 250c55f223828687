import type { CalibrationSample } from '../../src/calibration/fit-temperature.js';
import { scaledSoftmax } from '../../src/calibration/temperature.js';
import { seededRandom } from '../../src/util/rng.js';

/**
 * Coded calibration cases as a build fits them, at three levels of completeness in turn: the chief
 * complaint alone (0.05), a partial record (0.4) and a whole record (1). Each case has ten raw
 * scores, the first disease the highest; `pRight(completeness, p0)` says how often the first
 * disease (raw probability p0) is the truth; a wrong case's truth is one of the others, in
 * proportion to their raw probabilities. Seeded: the same arguments give the same cases.
 */
export function codedCalibrationCases(n: number, seed: number, pRight: (completeness: number, p0: number) => number): CalibrationSample[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const completeness = [0.05, 0.4, 1][i % 3]!;
    const scores = Float64Array.from({ length: 10 }, () => -4 * rnd());
    scores[0] = 1 + 6 * rnd();
    const p = scaledSoftmax(scores, 1);
    let truth = 0;
    if (rnd() >= pRight(completeness, p[0]!)) {
      let u = rnd() * (1 - p[0]!);
      truth = 1;
      while (truth < 9 && (u -= p[truth]!) > 0) truth++;
    }
    return { scores, truth, completeness };
  });
}
