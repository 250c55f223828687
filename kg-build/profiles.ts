import type { FeatureNode, ManifestationEdge } from '../src/domain/kg.js';

/** Sparse manifestation profile of a disease: feature id -> P(feature | disease). */
export type Profile = Map<string, number>;

export function diseaseProfiles(manifestations: readonly ManifestationEdge[]): Map<string, Profile> {
  const out = new Map<string, Profile>();
  for (const m of manifestations) {
    const p = out.get(m.diseaseId) ?? new Map<string, number>();
    p.set(m.featureId, m.prevalence);
    out.set(m.diseaseId, p);
  }
  return out;
}

export function meanProfile(profiles: readonly Profile[]): Profile {
  const out: Profile = new Map();
  for (const p of profiles) for (const [k, v] of p) out.set(k, (out.get(k) ?? 0) + v / profiles.length);
  return out;
}

export function cosineDistance(a: Profile, b: Profile): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w !== undefined) d += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na === 0 || nb === 0 ? 1 : Math.max(0, 1 - d / Math.sqrt(na * nb));
}

export function distanceMatrix(profiles: readonly Profile[]): number[][] {
  const n = profiles.length;
  const m = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const d = cosineDistance(profiles[i]!, profiles[j]!);
      m[i]![j] = d;
      m[j]![i] = d;
    }
  return m;
}

/** Short label of a feature for group names: its text without the question's lead-in and a trailing "yes", in at most 6 words. */
export function featureLabel(f: FeatureNode): string {
  const words = f.text
    .replace(/\s+(yes|no)$/i, '')
    .replace(QUESTION_LEAD, '')
    .replace(/[?:.]+$/, '')
    .split(/\s+/)
    .filter(Boolean);
  return words.length > 6 ? `${words.slice(0, 6).join(' ')}...` : words.join(' ');
}

/** "Do you have a cough?" reads as "cough" in a group name. */
const QUESTION_LEAD = /^(do|did|are|were|have|has|is|was)\s+(you|your)\s+((have|had|feel|felt|been|experienc\w*|notic\w*|suffer\w*|take|taken|ever)\s+)*((a|an|any|the)\s+)?/i;

/**
 * Names a group after its most distinctive features: mean prevalence inside minus mean
 * prevalence outside, highest first (ties by id, so names are stable).
 */
export function distinctiveFeatures(inside: readonly Profile[], outside: readonly Profile[], k: number): string[] {
  const mi = meanProfile(inside);
  const mo = meanProfile(outside);
  // Weight by coverage (share of the group's diseases that commonly show the feature), so a
  // name describes the group as a whole, not one member's rare trait.
  const coverage = (id: string) => inside.filter((p) => (p.get(id) ?? 0) >= COVERAGE_PREVALENCE).length / Math.max(1, inside.length);
  return [...mi.entries()]
    .map(([id, p]) => [id, coverage(id) ** 2 * (p - (mo.get(id) ?? 0))] as const)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, k)
    .map(([id]) => id);
}

/** A disease "commonly shows" a feature at this prevalence (for group naming). */
const COVERAGE_PREVALENCE = 0.2;

/** Each disease's `k` most prevalent feature labels (for prompts and topic assignment). */
export function topFeatureLabels(features: readonly FeatureNode[], manifestations: readonly ManifestationEdge[], k: number): Map<string, string[]> {
  const byId = new Map(features.map((f) => [f.id, f]));
  const out = new Map<string, string[]>();
  for (const [diseaseId, p] of diseaseProfiles(manifestations)) {
    const labels = [...p.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([id]) => byId.get(id))
      .filter((f): f is FeatureNode => f !== undefined)
      .map(featureLabel);
    out.set(diseaseId, [...new Set(labels)].slice(0, k));
  }
  return out;
}
