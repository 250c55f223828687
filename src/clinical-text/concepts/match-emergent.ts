import type { InputFinding } from '../findings.js';
import type { ConceptSet } from './concept-set.js';
import { emergentPhrases, formKey } from './emergent-phrases.js';
import type { ConceptMatch } from './resolve-features.js';
import { tierOf } from './tiers.js';

/**
 * The query side of emergent concepts (issue 24): a finding no vocabulary read is cut into the
 * same candidate keys the build counted (emergent-phrases.ts), and each key one of the KG's
 * emergent features was formed from reads as that feature. Each key is its own observation.
 */
const cache = new WeakMap<ConceptSet, Map<string, number>>();

export function emergentKeys(s: ConceptSet): Map<string, number> {
  const hit = cache.get(s);
  if (hit) return hit;
  const byKey = new Map<string, number>();
  s.features.forEach((f, i) => {
    if (tierOf(f) !== 'emergent') return;
    for (const form of f.forms ?? [f.text]) if (!byKey.has(formKey(form))) byKey.set(formKey(form), i);
  });
  cache.set(s, byKey);
  return byKey;
}

export function matchEmergent(s: ConceptSet, finding: InputFinding, keep?: (stem: string) => boolean): ConceptMatch[] {
  const keys = emergentKeys(s);
  if (keys.size === 0) return [];
  const out = new Map<number, ConceptMatch>();
  for (const p of emergentPhrases(finding, true, keep)) {
    const feature = keys.get(p.key);
    if (feature === undefined || out.has(feature)) continue;
    out.set(feature, { feature, similarity: 1, polarity: finding.polarity, alternatives: `emergent:${feature}`, via: `emergent concept "${s.features[feature]!.text}" (phrase "${p.key}")` });
  }
  return [...out.values()];
}
