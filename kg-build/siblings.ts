import type { Hierarchy } from './hierarchy-types.js';

/**
 * Siblings of each disease: the other diseases of its subcategory; a disease alone in its
 * subcategory is contrasted with the rest of its category instead (else it would get no
 * key differences at all).
 */
export function siblingsOf(diseaseIds: readonly string[], h: Hierarchy): Map<string, string[]> {
  const catOfSub = new Map(h.subcategories.map((s) => [s.id, s.categoryId]));
  const bySub = new Map<string, string[]>();
  const byCat = new Map<string, string[]>();
  for (const id of diseaseIds) {
    const s = h.subcategoryOf.get(id)!;
    const c = catOfSub.get(s)!;
    bySub.set(s, [...(bySub.get(s) ?? []), id]);
    byCat.set(c, [...(byCat.get(c) ?? []), id]);
  }
  const out = new Map<string, string[]>();
  for (const id of diseaseIds) {
    const s = h.subcategoryOf.get(id)!;
    const sub = bySub.get(s)!.filter((x) => x !== id);
    out.set(id, sub.length > 0 ? sub : byCat.get(catOfSub.get(s)!)!.filter((x) => x !== id));
  }
  return out;
}
