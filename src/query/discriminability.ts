import type { KgSnapshot } from './kg-snapshot.js';

// MedRAG eq. 15: sigma(f) = (n - 1) / deg(f), n = number of feature nodes, deg = diseases linked to f.
export function sigma(s: KgSnapshot, feature: number): number {
  const deg = s.featureDegree[feature] ?? 0;
  return deg > 0 ? (s.features.length - 1) / deg : 0;
}
