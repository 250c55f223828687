/**
 * Adapts the query side's in-memory KG (`KgSnapshot`, read from Neo4j) to the narrow
 * `FollowupKg` view, so sessions reason over exactly the graph the pipeline serves.
 */
import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { FollowupKg } from './model.js';

export function followupKgFromSnapshot(s: Pick<KgSnapshot, 'diseases' | 'features' | 'manifestations'>): FollowupKg {
  const manifestations = s.diseases.flatMap((d, di) => {
    const m = s.manifestations[di]!;
    return [...m.features].map((f, i) => ({ diseaseId: d.id, featureId: s.features[f]!.id, prevalence: m.prevalence[i]!, count: m.counts[i]! }));
  });
  return { diseases: s.diseases, features: s.features, manifestations };
}
