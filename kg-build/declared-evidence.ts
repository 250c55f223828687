import type { DeclaredEvidence } from '../src/sources/types.js';
import type { DiseaseClusters } from './cluster-diseases.js';

/**
 * Attaches the source's declared evidence codes (RecordSource.declaredEvidence) to each
 * clustered disease: the union over the raw diagnosis strings merged into it, in first-seen
 * order. A disease none of whose raw names the source knows gets null ("no declaration"),
 * not an empty list ("declares nothing").
 */
export function attachDeclaredEvidence(clusters: DiseaseClusters, declared: DeclaredEvidence | null): DiseaseClusters {
  if (declared === null) return clusters;
  const codes = new Map<string, Set<string>>();
  for (const [raw, id] of clusters.diseaseOf) {
    const got = declared(raw);
    if (got === null) continue;
    const set = codes.get(id) ?? new Set<string>();
    for (const c of got) set.add(c);
    codes.set(id, set);
  }
  return { ...clusters, diseases: clusters.diseases.map((d) => ({ ...d, declaredEvidence: codes.has(d.id) ? [...codes.get(d.id)!] : null })) };
}
