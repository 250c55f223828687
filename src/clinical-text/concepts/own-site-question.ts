import type { ConceptIndex } from './concept-index.js';

/**
 * The one site question asked under a yes/no question (DDXPlus `code_question`: E_129 "skin
 * lesion" → E_133 "where is the affected region", E_151 "swelling" → E_152), or null when it has
 * none or several (E_53 pain: where it is and where it radiates, which only a head word tells
 * apart). A site inside that concept's own words is its answer: "swelling in the groin" is how
 * DDXPlus codes a hernia, a skin lesion at the groin, not a swelling there.
 */
const cache = new WeakMap<ConceptIndex, ReadonlyMap<string, string | null>>();

export function ownSiteQuestion(index: ConceptIndex, code: string): string | null {
  let byParent = cache.get(index);
  if (!byParent) {
    const children = new Map<string, Set<string>>();
    for (const f of index.snapshot.features) {
      if (!f.code || !f.parentCode || !index.siteEvidences.includes(f.code)) continue;
      children.set(f.parentCode, (children.get(f.parentCode) ?? new Set()).add(f.code));
    }
    byParent = new Map([...children].map(([parent, sites]) => [parent, sites.size === 1 ? [...sites][0]! : null]));
    cache.set(index, byParent);
  }
  return byParent.get(code) ?? null;
}
