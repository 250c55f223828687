import type { Profile } from './profiles.js';

/**
 * The `limit` siblings whose manifestation profiles are closest to a disease's (cosine),
 * kept in the siblings' own order. A key difference is read against the diseases it is
 * confused with; a generated 5,000-diagnosis KG put 1,605 diseases in one subcategory, and
 * contrasting each of their key differences with every sibling made 13.9M CONTRASTS_WITH
 * edges and 220M characters of text (the build then died of a V8 heap overflow in the
 * graph checks). Sibling lists no longer than `limit` are returned as they are, so a KG
 * whose subcategories are small (DDXPlus: at most 17 siblings) is unchanged.
 */
export interface SiblingIndex {
  nearest(diseaseId: string, siblings: readonly string[], limit: number): string[];
}

export function siblingIndex(profiles: ReadonlyMap<string, Profile>): SiblingIndex {
  // feature -> diseases showing it, so a disease meets only the siblings it shares a feature with.
  const withFeature = new Map<string, { id: string; p: number }[]>();
  const norm = new Map<string, number>();
  for (const [id, profile] of profiles) {
    let n = 0;
    for (const [f, p] of profile) {
      n += p * p;
      const list = withFeature.get(f);
      if (list) list.push({ id, p });
      else withFeature.set(f, [{ id, p }]);
    }
    norm.set(id, Math.sqrt(n));
  }
  return {
    nearest(diseaseId, siblings, limit) {
      if (siblings.length <= limit) return [...siblings];
      const position = new Map(siblings.map((s, i) => [s, i]));
      const overlap = new Float64Array(siblings.length);
      for (const [f, p] of profiles.get(diseaseId) ?? []) {
        for (const other of withFeature.get(f) ?? []) {
          const i = position.get(other.id);
          if (i !== undefined) overlap[i]! += p * other.p;
        }
      }
      const own = norm.get(diseaseId) ?? 0;
      const cos = siblings.map((sib, i) => {
        const d = own * (norm.get(sib) ?? 0);
        return d === 0 ? 0 : overlap[i]! / d;
      });
      // Closest first, ties (no shared feature at all) in sibling order; then back to sibling order.
      const order = siblings.map((_, i) => i).sort((a, b) => cos[b]! - cos[a]! || a - b);
      return order.slice(0, limit).sort((a, b) => a - b).map((i) => siblings[i]!);
    },
  };
}
