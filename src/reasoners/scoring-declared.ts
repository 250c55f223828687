import type { KgSnapshot } from '../query/kg-snapshot.js';
import { yesNoFeatureOf } from '../clinical-text/concepts/yes-feature.js';

/**
 * Declared-but-unseen features (scoring-naive-bayes.ts, pδ): a source that ships a condition
 * dictionary (DDXPlus release_conditions.json → :Disease.declaredEvidence) says which
 * evidences a disease can show. A rare disease's few records show only some of them, and
 * smoothing alone prices the rest like evidence the disease never has (α/(n+2α) ≈ 0.006 for
 * n = 5): Bronchiolitis (1 record of 1,567) lost "wheeze" to Bronchitis. A declared yes/no
 * feature with no count gets Laplace's add-one estimate 1/(n+2) instead: 0.33 for one
 * record, 0.02 for fifty, so it matters only where the sample is thin. Features with a
 * count keep their smoothed prevalence; multi-valued answers (which pain site) are not
 * declared per value and keep p0.
 */
export function declaredUnseen(s: KgSnapshot, d: number): Map<number, readonly [number, number]> {
  const out = new Map<number, readonly [number, number]>();
  const codes = s.diseases[d]!.declaredEvidence;
  if (!codes || codes.length === 0) return out;
  const n = s.diseases[d]!.recordCount;
  const p = 1 / (n + 2);
  const pair = [Math.log(p), Math.log(1 - p)] as const;
  const m = s.manifestations[d]!;
  const yes = yesNoFeatureOf(s);
  for (const code of codes) {
    const f = yes.get(code);
    if (f !== undefined && !m.position.has(f)) out.set(f, pair);
  }
  return out;
}
