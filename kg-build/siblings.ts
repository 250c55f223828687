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
    // Pushed in place: copying the list per member was quadratic (66 s with 1,605 in one subcategory).
    const inSub = bySub.get(s);
    if (inSub) inSub.push(id);
    else bySub.set(s, [id]);
    const inCat = byCat.get(c);
    if (inCat) inCat.push(id);
    else byCat.set(c, [id]);
  }
  const out = new Map<string, string[]>();
  for (const id of diseaseIds) {
    const s = h.subcategoryOf.get(id)!;
    const sub = bySub.get(s)!.filter((x) => x !== id);
    out.set(id, sub.length > 0 ? sub : byCat.get(catOfSub.get(s)!)!.filter((x) => x !== id));
  }
  return out;
}
