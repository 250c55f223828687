import type { KgSnapshot } from '../query/kg-snapshot.js';

const byCode = new WeakMap<KgSnapshot, Map<string, number>>();

/**
 * Source code → the feature of its "yes" answer, per snapshot: a yes/no question has exactly
 * one feature and it carries no value code (DDXPlus "Do you have a cough? yes" is E_201).
 * Codes with several value-less features (not a yes/no question) are left out.
 */
export function yesNoFeatureOf(s: KgSnapshot): Map<string, number> {
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
