import { codeKey, type ConceptSet } from './concept-set.js';
import type { ConceptIndex } from './concept-index.js';
import type { ConceptMatch } from './resolve-features.js';
import type { ConceptLexicon } from './types.js';

/**
 * One complaint, two encodings in the KG's source: "sore throat" is both the sore-throat
 * question and pain located at the pharynx (DDXPlus codes viral pharyngitis only the second
 * way), "painful swallowing" both difficulty swallowing and throat pain. A yes/no concept and
 * a site question's own value that share a surface form are such a pair; in one finding their
 * matches are one observation (alternatives), not two, so a disease coded the other way is not
 * penalised twice. The site question's head concept (pain: "earache" is pain and ear pain) is
 * implied anyway and never paired.
 */

/** Yes/no evidence code → the KG features (site values) that encode the same complaint. */
export type EquivalentEncodings = Map<string, number[]>;

/** Built once with the concept index: pairs from shared forms, kept where the KG holds the site value. */
export function equivalentEncodings(lexicon: ConceptLexicon, snapshot: ConceptSet): EquivalentEncodings {
  const out: EquivalentEncodings = new Map();
  const siteQuestions = Object.entries(lexicon.evidences).filter(([, ev]) => ev.valueSet === 'sites');
  for (const [code, ev] of Object.entries(lexicon.evidences)) {
    if (ev.valueSet === 'sites') continue;
    const forms = new Set([ev.canonical, ...ev.forms]);
    for (const [siteCode, site] of siteQuestions) {
      // The site question's head concept (pain: its forms are the head words) is implied, not paired.
      if (site.triggers.some((t) => forms.has(t))) continue;
      for (const [valueCode, value] of Object.entries(site.values)) {
        if (![value.canonical, ...value.forms].some((f) => forms.has(f))) continue;
        const feature = snapshot.featureByCode.get(codeKey(siteCode, valueCode));
        if (feature === undefined || snapshot.features[feature]!.parentCode === code) continue;
        out.set(code, [...(out.get(code) ?? []), feature]);
      }
    }
  }
  return out;
}

/** Joins, within one finding's matches, each paired site value to its yes/no concept's group, adding the pair the text did not name. */
export function joinEquivalent(index: ConceptIndex, matches: ConceptMatch[]): void {
  if (index.equivalents.size === 0 || matches.length === 0) return;
  const features = index.snapshot.features;
  for (const m of [...matches]) {
    const f = features[m.feature]!;
    const pairs = f.code && f.valueCode === null ? index.equivalents.get(f.code) : undefined;
    if (!pairs) continue;
    const joined = new Set<string>();
    for (const feature of pairs) {
      const named = matches.filter((o) => o.feature === feature);
      for (const o of named) joined.add(o.alternatives);
      if (named.length === 0) matches.push({ ...m, feature, via: `${m.via}, also coded as ${features[feature]!.text}` });
    }
    for (const o of matches) if (joined.has(o.alternatives)) o.alternatives = m.alternatives;
  }
}
