import type { FeatureNode } from '../../domain/kg.js';
import type { ConceptSet } from './concept-set.js';

/**
 * The order a finding is read in (issue 24): the build's coded concepts first (DDXPlus
 * evidences with the reviewed lexicon, OMOP/FHIR codes by their names), then an open phenotype
 * vocabulary (HPO), then concepts that emerged from the notes themselves. A finding read by an
 * earlier tier never reaches a later one, at build time and at query time alike, so a query
 * lands on the features the notes of its kind were counted under.
 */
export type ConceptTier = 'coded' | 'phenotype' | 'emergent';

export const EMERGENT_VOCABULARY = 'emergent';
/** Finding.concept.vocabulary of a phrase of a note no vocabulary read: grouped into emergent concepts after the scan, kept when k patients share it. */
export const EMERGENT_CANDIDATE = 'emergent-candidate';
export const PHENOTYPE_VOCABULARIES: ReadonlySet<string> = new Set(['HPO']);

export function tierOf(f: Pick<FeatureNode, 'vocabulary'>): ConceptTier {
  const v = f.vocabulary ?? null;
  if (v === EMERGENT_VOCABULARY) return 'emergent';
  if (v !== null && PHENOTYPE_VOCABULARIES.has(v)) return 'phenotype';
  return 'coded';
}

const seen = new WeakMap<ConceptSet, ConceptTier[]>();

/** The tiers a snapshot's features fall in, in reading order ('coded' always first). */
export function snapshotTiers(s: ConceptSet): ConceptTier[] {
  const hit = seen.get(s);
  if (hit) return hit;
  const present = new Set<ConceptTier>(['coded']);
  for (const f of s.features) present.add(tierOf(f));
  const out = (['coded', 'phenotype', 'emergent'] as const).filter((t) => present.has(t));
  seen.set(s, out);
  return out;
}
