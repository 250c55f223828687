import type { ConditionFact } from './clinical-facts.js';

/**
 * Which of a visit's conditions is its label.
 * - primary: a primary diagnosis by status (OMOP condition_status 32902; FHIR
 *   Encounter.diagnosis rank 1), then by type, then the earliest start, then the source order;
 * - earliest: the earliest start, then the source order (sources without status / type).
 */
export type LabelRule = 'primary' | 'earliest';

export const LABEL_RULES: readonly LabelRule[] = ['primary', 'earliest'];

export function chooseLabel(conditions: readonly ConditionFact[], rule: LabelRule): ConditionFact | null {
  let best: ConditionFact | null = null;
  for (const c of conditions) {
    if (best === null || better(c, best, rule)) best = c;
  }
  return best;
}

/** Strictly better only: on a full tie the first in source order stays. */
function better(a: ConditionFact, b: ConditionFact, rule: LabelRule): boolean {
  if (rule === 'primary' && a.primaryRank !== b.primaryRank) return a.primaryRank < b.primaryRank;
  return a.startDate < b.startDate;
}
