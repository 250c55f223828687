/** Hand-built KG hierarchy and predictions for the evaluation harness's unit tests. */
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import { diseaseLevels, truthResolver } from '../../src/eval/hierarchy-levels.js';
import type { EvalCase } from '../../src/eval/types.js';

/**
 * Two categories, three subcategories, five diseases with ICD-10 codes:
 *   resp / lower: pneumonia (J18), bronchitis (J40)   resp / upper: urti (J06.9)
 *   cardio / coronary: stable angina (I20.9), unstable angina (I20.0)
 */
export function hierarchySnapshot(): KgSnapshot {
  const d = (id: string, name: string, sub: string, icd10: string | null, aliases: string[] = []) => ({ id, name, subcategoryId: sub, icd10, recordCount: 1, aliases });
  return buildSnapshot({
    categories: [{ id: 'cat:resp', name: 'Respiratory' }, { id: 'cat:cardio', name: 'Cardio' }],
    subcategories: [
      { id: 'sub:lower', name: 'Lower', categoryId: 'cat:resp' },
      { id: 'sub:upper', name: 'Upper', categoryId: 'cat:resp' },
      { id: 'sub:coronary', name: 'Coronary', categoryId: 'cat:cardio' },
    ],
    diseases: [
      d('dis:pneumonia', 'Pneumonia', 'sub:lower', 'j17, j18'),
      d('dis:bronchitis', 'Bronchitis', 'sub:lower', 'j40'),
      d('dis:urti', 'URTI', 'sub:upper', 'j06.9', ['Common cold']),
      d('dis:stable-angina', 'Stable angina', 'sub:coronary', 'I20.9'),
      d('dis:unstable-angina', 'Unstable angina', 'sub:coronary', 'I20.0'),
    ],
    features: [],
    manifestations: [],
  });
}

/** A case whose truth is `truth` (a diagnosis string) and whose differential is `ranked` (disease ids). */
export function caseOf(s: KgSnapshot, id: string, truth: string, ranked: string[], timingsMs: Record<string, number> = {}): EvalCase {
  return {
    recordId: id,
    truth: truthResolver(s)({ diagnosis: truth, icd10: null }),
    ranked: ranked.map((r) => diseaseLevels(s, r)!),
    timingsMs,
    gate: null,
    failed: null,
  };
}
