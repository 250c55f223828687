/** The build report's calibration lines (issue 48): how the build calibrated itself, or why it did not, and what it cost. */
import type { CrossFitOutcome } from './cross-fit.js';
import { formatCalibration } from './run-calibration.js';

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function crossFitLines(c: Pick<CrossFitOutcome<unknown>, 'plan' | 'calibration' | 'ms'>): string[] {
  if (!c.calibration) return [`calibration: none, ${c.plan.tooSmall ?? 'not fitted'}: probabilities are the raw posterior (likely overconfident); the API says calibrated: false and the copilot shows ranks`];
  const f = c.calibration;
  const lines = formatCalibration(f).trimEnd().split('\n').map((l, i) => (i === 0 ? `calibration: ${l}` : l));
  const missing = (['coded', 'text'] as const).filter((k) => !f.kinds[k]);
  if (missing.length > 0) lines.push(`  ${missing.join(' and ')} input: too few held-out cases (under 30): served uncalibrated`);
  lines.push(`  sources: ${f.heldOut.sources.join(', ')}`);
  lines.push(`  cost: fit build ${s(c.ms.fitBuild)} + fit ${s(c.ms.fit)}, beside the served build's ${s(c.ms.servedBuild)} (--no-calibrate skips both)`);
  return lines;
}
