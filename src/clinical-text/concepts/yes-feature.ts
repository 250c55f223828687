import type { FeatureNode } from '../../domain/kg.js';

type Features = { readonly features: readonly FeatureNode[] };
const byCode = new WeakMap<Features, Map<string, number>>();

/**
 * Source code → the feature of its "yes" answer, per concept set or snapshot: a yes/no question
 * has exactly one feature and it carries no value code (DDXPlus "Do you have a cough? yes" is
 * E_201). Codes with several value-less features (not a yes/no question) are left out.
 */
export function yesNoFeatureOf(s: Features): Map<string, number> {
  let m = byCode.get(s);
  if (m) return m;
  m = new Map();
  const perCode = new Map<string, number[]>();
  s.features.forEach((f, i) => {
    if (f.code && f.valueCode === null) perCode.set(f.code, [...(perCode.get(f.code) ?? []), i]);
  });
  for (const [code, list] of perCode) if (list.length === 1) m.set(code, list[0]!);
  byCode.set(s, m);
  return m;
}

/**
 * The "yes" feature of the question a follow-on answer is asked under (Feature.parentCode,
 * DDXPlus code_question): a pain location implies pain (E_55 under E_53), a rash colour a skin
 * lesion. A DDXPlus record always carries both; text names the specific finding and rarely the
 * parent, so the note reader (build) and the evidence reasoner (query) both add it.
 */
export function impliedParentOf(s: Features, feature: number): number | undefined {
  const parentCode = s.features[feature]?.parentCode;
  return parentCode ? yesNoFeatureOf(s).get(parentCode) : undefined;
}
