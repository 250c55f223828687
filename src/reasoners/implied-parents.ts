import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { ReportedFeature } from './scoring-naive-bayes.js';
import { impliedParentOf } from '../clinical-text/concepts/yes-feature.js';

/**
 * A present answer to a follow-on question implies its parent's yes (Feature.parentCode,
 * DDXPlus code_question): "tugging at the right ear" is a pain location, so the patient has
 * pain (E_55 under E_53), and a rash colour means a skin lesion (E_130 under E_129). Free text
 * names the specific finding and rarely the parent; a DDXPlus record always has both, so
 * without this the parent's absence from the text looked like a difference between diseases
 * (the note reader adds it at build time the same way: read-notes.ts).
 * A parent already reported (present or absent) is left as reported; the implied one weighs
 * as much as its heaviest child and forms an observation of its own.
 */
export function withImpliedParents(s: KgSnapshot, reported: readonly ReportedFeature[]): ReportedFeature[] {
  const have = new Set(reported.map((r) => r.feature));
  const implied = new Map<number, number>();
  for (const r of reported) {
    if (!r.present) continue;
    const parent = impliedParentOf(s, r.feature);
    if (parent === undefined || have.has(parent)) continue;
    implied.set(parent, Math.max(implied.get(parent) ?? 0, r.weight));
  }
  if (implied.size === 0) return [...reported];
  let group = Math.max(0, ...reported.map((r) => r.group ?? 0));
  return [...reported, ...[...implied].map(([feature, weight]) => ({ feature, present: true, weight, group: ++group }))];
}
