/**
 * Estimates the follow-up model's KG from training records in memory: diseases with
 * record counts, features with provenance, and HAS_MANIFESTATION-like edges whose
 * prevalence is P(feature | disease). Lets the simulation run without Neo4j, with the
 * same shapes the Neo4j snapshot has.
 */
import { featureIdOf, featureKey } from '../../kg-build/feature-key.js';
import { slug } from '../../kg-build/text.js';
import type { Finding, NormalizedRecord } from '../domain/record.js';
import { countDemographics, demographicModel, emptyDemographicCounts, type DemographicModel } from './demographics.js';
import type { FollowupFeature, FollowupKg } from './model.js';

export interface FeatureIdScheme {
  featureId(f: Finding): string;
  diseaseId(diagnosis: string): string;
}

/**
 * The KG build's ids (kg-build/feature-key.ts): a feature is a hash of its (code, value)
 * or normalised text, a disease a slug of its name (DDXPlus names need no clustering).
 */
export const KG_BUILD_IDS: FeatureIdScheme = {
  featureId: (f) => featureIdOf(featureKey(f)),
  diseaseId: (diagnosis) => `dis:${slug(diagnosis)}`,
};

export function featureFromFinding(id: string, f: Finding): FollowupFeature {
  return { id, text: f.text, code: f.code, valueCode: f.valueCode, question: f.question, valueText: f.valueText, antecedent: f.antecedent };
}

export function kgFromRecords(records: Iterable<NormalizedRecord>, scheme: FeatureIdScheme = KG_BUILD_IDS): { kg: FollowupKg; demographics: DemographicModel } {
  const diseases = new Map<string, { id: string; name: string; recordCount: number }>();
  const features = new Map<string, FollowupFeature>();
  const edges = new Map<string, Map<string, number>>(); // diseaseId -> featureId -> count
  const kept: { diseaseId: string; rec: NormalizedRecord }[] = [];
  for (const rec of records) {
    const diseaseId = scheme.diseaseId(rec.diagnosis);
    const d = diseases.get(diseaseId) ?? { id: diseaseId, name: rec.diagnosis, recordCount: 0 };
    d.recordCount += 1;
    diseases.set(diseaseId, d);
    kept.push({ diseaseId, rec });
    const row = edges.get(diseaseId) ?? new Map<string, number>();
    edges.set(diseaseId, row);
    const seen = new Set<string>();
    for (const f of rec.findings) {
      const id = scheme.featureId(f);
      if (seen.has(id)) continue;
      seen.add(id);
      if (!features.has(id)) features.set(id, featureFromFinding(id, f));
      row.set(id, (row.get(id) ?? 0) + 1);
    }
  }
  const diseaseList = [...diseases.values()].sort((a, b) => a.id.localeCompare(b.id));
  const index = new Map(diseaseList.map((d, i) => [d.id, i]));
  const demo = emptyDemographicCounts(diseaseList.length);
  for (const { diseaseId, rec } of kept) countDemographics(demo, index.get(diseaseId)!, { age: rec.age, sex: rec.sex });
  const manifestations = [...edges].flatMap(([diseaseId, row]) => {
    const n = diseases.get(diseaseId)!.recordCount;
    return [...row].map(([featureId, count]) => ({ diseaseId, featureId, count, prevalence: count / n }));
  });
  return { kg: { diseases: diseaseList, features: [...features.values()], manifestations }, demographics: demographicModel(demo) };
}
