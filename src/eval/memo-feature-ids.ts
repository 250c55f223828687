/**
 * The KG's feature id of each test finding, computed once: the simulated patient answers up to
 * max(--questions) questions from one record, and each answer looks up the ids of all its findings
 * (src/followups/simulate.ts), a hash each (kg-build/feature-key.ts; issue 49: that hashing was
 * a twentieth of the demo's evaluation). An id is a function of the finding alone, so the answers
 * are the same.
 */
import type { Finding } from '../domain/record.js';
import type { FeatureIdScheme } from '../followups/record-kg.js';

export function memoFeatureIds(scheme: FeatureIdScheme): FeatureIdScheme {
  const ids = new WeakMap<Finding, string>();
  return {
    featureId: (f) => {
      let id = ids.get(f);
      if (id === undefined) {
        id = scheme.featureId(f);
        ids.set(f, id);
      }
      return id;
    },
    diseaseId: (diagnosis) => scheme.diseaseId(diagnosis),
  };
}
