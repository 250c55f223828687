/** A small hand-built KG for the follow-up and session unit tests. */
import type { FollowupFeature, FollowupKg } from '../../src/followups/model.js';

const feat = (id: string, code: string, valueCode: string | null, question: string, valueText: string | null): FollowupFeature => ({
  id, text: `${question} ${valueText ?? 'yes'}`, code, valueCode, question, valueText, antecedent: false,
});

/**
 * Diseases A (20 records), B (20), C (10). cough: everyone; fever: mostly A; rash: only C;
 * pain location (E_4, several-of): chest for A, back for B; intensity (E_5, number): 2 for A, 8 for B.
 */
export function fixtureKg(): FollowupKg {
  const features = [
    feat('feat:cough', 'E_1', null, 'Do you cough?', null),
    feat('feat:fever', 'E_2', null, 'Do you have a fever?', null),
    feat('feat:rash', 'E_3', null, 'Do you have a rash?', null),
    feat('feat:chest', 'E_4', 'V_1', 'Where is the pain located?', 'chest'),
    feat('feat:back', 'E_4', 'V_2', 'Where is the pain located?', 'back'),
    feat('feat:i2', 'E_5', '2', 'How intense is the pain?', '2'),
    feat('feat:i8', 'E_5', '8', 'How intense is the pain?', '8'),
  ];
  const edges: [string, string, number][] = [
    ['dis:a', 'feat:cough', 18], ['dis:b', 'feat:cough', 18], ['dis:c', 'feat:cough', 9],
    ['dis:a', 'feat:fever', 18], ['dis:b', 'feat:fever', 2],
    ['dis:c', 'feat:rash', 9],
    ['dis:a', 'feat:chest', 15], ['dis:b', 'feat:back', 15],
    ['dis:a', 'feat:i2', 16], ['dis:b', 'feat:i8', 16],
  ];
  const diseases = [
    { id: 'dis:a', name: 'A', recordCount: 20 },
    { id: 'dis:b', name: 'B', recordCount: 20 },
    { id: 'dis:c', name: 'C', recordCount: 10 },
  ];
  const n = new Map(diseases.map((d) => [d.id, d.recordCount]));
  return { diseases, features, manifestations: edges.map(([diseaseId, featureId, count]) => ({ diseaseId, featureId, count, prevalence: count / n.get(diseaseId)! })) };
}
