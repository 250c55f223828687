import type { FeatureNode, KeyDifferenceNode, ManifestationEdge } from '../src/domain/kg.js';
import type { ClusteredDisease } from './cluster-diseases.js';
import type { Hierarchy } from './hierarchy-types.js';
import { diseaseProfiles, featureLabel } from './profiles.js';
import { siblingsOf } from './siblings.js';
import { siblingIndex } from './nearest-siblings.js';
import { stableHash } from './text.js';

// MedRAG eq. 5 without an LLM: key-difference nodes from the EHR statistics themselves.

export interface StatisticalKdOptions {
  /** A key difference must be at least this frequent in the disease... */
  minPrevalenceIn: number;
  /** ...and at most this frequent (mean) among its siblings. */
  maxPrevalenceSiblings: number;
  /** Keep the largest gaps, this many per disease. */
  perDisease: number;
  /** A disease with more siblings is contrasted with this many, the closest by profile (nearest-siblings.ts). */
  maxContrasts: number;
}

export const DEFAULT_KD_OPTIONS: StatisticalKdOptions = { minPrevalenceIn: 0.5, maxPrevalenceSiblings: 0.2, perDisease: 5, maxContrasts: 32 };

export interface KdInput {
  diseases: readonly ClusteredDisease[];
  hierarchy: Hierarchy;
  features: readonly FeatureNode[];
  manifestations: readonly ManifestationEdge[];
}

const pct = (p: number) => `${Math.round(p * 100)}%`;

export function statisticalKeyDifferences(input: KdInput, options: Partial<StatisticalKdOptions> = {}): KeyDifferenceNode[] {
  const opts = { ...DEFAULT_KD_OPTIONS, ...options };
  const profiles = diseaseProfiles(input.manifestations.filter((m) => m.source === 'ehr'));
  const featureById = new Map(input.features.map((f) => [f.id, f]));
  const nameOf = new Map(input.diseases.map((d) => [d.id, d.name]));
  const siblings = siblingsOf(input.diseases.map((d) => d.id).sort(), input.hierarchy);
  const closest = siblingIndex(profiles);
  const out: KeyDifferenceNode[] = [];
  for (const [diseaseId, allSibs] of siblings) {
    if (allSibs.length === 0) continue;
    const sibs = closest.nearest(diseaseId, allSibs, opts.maxContrasts);
    const own = profiles.get(diseaseId) ?? new Map<string, number>();
    const candidates = [...own.entries()]
      .map(([featureId, pIn]) => {
        const pSib = sibs.reduce((s, id) => s + (profiles.get(id)?.get(featureId) ?? 0), 0) / sibs.length;
        return { featureId, pIn, pSib };
      })
      .filter((c) => c.pIn >= opts.minPrevalenceIn && c.pSib <= opts.maxPrevalenceSiblings)
      .sort((a, b) => b.pIn - b.pSib - (a.pIn - a.pSib) || a.featureId.localeCompare(b.featureId))
      .slice(0, opts.perDisease);
    const sibNames = sibs.map((id) => nameOf.get(id) ?? id).join(', ') + (sibs.length < allSibs.length ? ` (the ${sibs.length} closest of ${allSibs.length} siblings)` : '');
    for (const c of candidates) {
      const f = featureById.get(c.featureId);
      const label = f ? featureLabel(f) : c.featureId;
      out.push({
        id: `kd:${stableHash(diseaseId, c.featureId, 'statistical')}`,
        diseaseId,
        contrastsWith: sibs,
        text: `${label}: ${pct(c.pIn)} in ${nameOf.get(diseaseId)} vs ${pct(c.pSib)} in ${sibNames}`,
        featureId: c.featureId,
        prevalenceIn: c.pIn,
        prevalenceSiblings: c.pSib,
        source: 'statistical',
      });
    }
  }
  return out;
}
