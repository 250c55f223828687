import { InputError } from '../errors.js';
import type { GateParams, SentenceLabel } from './types.js';

// FIND eq. 2-3: I(Q) = Σ_i (α·𝟙[l_i=A] + β·𝟙[l_i=B] + γ·𝟙[l_i=C]);  I_norm(Q) = I(Q) / (α·n).

export type DensityWeights = Pick<GateParams, 'alpha' | 'beta' | 'gamma'>;

/**
 * Normalised information density of a labelled input. Counts are multiplied rather than
 * summed term by term, so e.g. four B labels give exactly 4·β (fewer rounding steps at the
 * thresholds). No sentences means no information: 0.
 */
export function informationDensity(labels: readonly SentenceLabel[], w: DensityWeights): number {
  if (!(w.alpha > 0)) throw new InputError('gate alpha must be > 0 (it normalises I_norm)', { field: 'alpha' });
  const n = labels.length;
  if (n === 0) return 0;
  let a = 0;
  let b = 0;
  let c = 0;
  for (const l of labels) {
    if (l === 'A') a++;
    else if (l === 'B') b++;
    else c++;
  }
  return (w.alpha * a + w.beta * b + w.gamma * c) / (w.alpha * n);
}
