import type { FeatureNode } from '../../domain/kg.js';
import { codeKey, type ConceptSet } from './concept-set.js';
import type { ConceptLexicon } from './types.js';

/**
 * Every concept the lexicon can name, as a concept set of its own: each evidence, each of its
 * answer values, each body site of a site question. The build reads notes with all of them
 * (kg-build/note-vocabularies.ts); a query reads into the KG's features, which hold only those its
 * records showed. A query finding that names a lexicon concept the KG lacks ("energy drinks" in a
 * KG none of whose notes said it) is that concept, as it would have been at build: not an emergent
 * phrase of its words, nor an embedding neighbour (match-concepts.ts).
 */
const cache = new WeakMap<ConceptLexicon, ConceptSet>();

export function lexiconConceptSet(lexicon: ConceptLexicon): ConceptSet {
  const hit = cache.get(lexicon);
  if (hit) return hit;
  const features: FeatureNode[] = [];
  const add = (code: string, valueCode: string | null, text: string) =>
    features.push({ id: `lex:${codeKey(code, valueCode)}`, text, kind: 'ehr', code, valueCode, question: null, valueText: null, antecedent: null });
  for (const [code, ev] of Object.entries(lexicon.evidences)) {
    add(code, null, ev.canonical);
    for (const [valueCode, v] of Object.entries(ev.values)) add(code, valueCode, v.canonical);
    if (ev.valueSet === 'sites') for (const [valueCode, site] of Object.entries(lexicon.sites)) add(code, valueCode, site.canonical);
  }
  const set: ConceptSet = {
    features,
    featureIndex: new Map(features.map((f, i) => [f.id, i])),
    featureByCode: new Map(features.map((f, i) => [codeKey(f.code!, f.valueCode), i])),
  };
  cache.set(lexicon, set);
  return set;
}
