import type { FeatureNode } from '../src/domain/kg.js';
import type { Finding } from '../src/domain/record.js';
import type { Vocabulary, VocabularyConcept } from '../src/clinical-text/vocabulary.js';
import type { ConceptLexicon } from '../src/clinical-text/concepts/types.js';
import { buildSnapshot, type KgSnapshot } from '../src/query/kg-snapshot.js';
import type { DdxplusDictionary } from '../src/sources/ddxplus/dictionary.js';
import type { EvidenceToken } from '../src/sources/ddxplus/evidence-token.js';
import { renderFinding } from '../src/sources/ddxplus/render.js';
import { featureIdOf, featureKey } from './feature-key.js';

/**
 * The vocabularies notes are read into (issue 24), as one snapshot of features with no diseases,
 * in the reading order of src/clinical-text/concepts/tiers.ts: the DDXPlus question set (every evidence and
 * answer value, as the DDXPlus source renders them, so a note's "fever" and a DDXPlus record's
 * E_91 are one feature), read with the reviewed lexicon; then HPO phenotypes by their labels and
 * synonyms. Vocabularies are data handed in; nothing here knows what a fever is.
 */
export interface NoteVocabularies {
  snapshot: KgSnapshot;
  lexicon: ConceptLexicon | null;
  /** What was used and whom to credit, for the build report. */
  used: { name: string; concepts: number; attribution: string }[];
}

function node(f: Finding): FeatureNode {
  return { id: featureIdOf(featureKey(f)), text: f.text, kind: 'ehr', code: f.code, valueCode: f.valueCode, question: f.question, valueText: f.valueText, antecedent: f.antecedent, answerType: f.answerType ?? null, parentCode: f.parentCode ?? null, vocabulary: f.concept?.vocabulary ?? null, forms: f.concept?.forms ?? null, xrefs: f.concept?.xrefs ?? null };
}

/** Every answer the DDXPlus questionnaire can record, as the DDXPlus source's findings. */
export function ddxplusFeatures(dict: DdxplusDictionary): FeatureNode[] {
  const out: FeatureNode[] = [];
  for (const [code, ev] of dict.evidences) {
    const tokens: EvidenceToken[] = ev.data_type === 'B'
      ? [{ code, value: null }]
      : ev['possible-values'].map((v) => (typeof v === 'number' ? { code, value: { kind: 'number' as const, value: v, raw: String(v) } } : { code, value: { kind: 'code' as const, code: v } }));
    for (const t of tokens) {
      const f = renderFinding(t, ev);
      // Denials ("N", "nowhere") are absent answers of another feature, not features of their own.
      if (f.ok && f.value.polarity === 'present') out.push(node(f.value));
    }
  }
  return out;
}

/** A phenotype vocabulary's concepts as features read by their forms (tier 'phenotype'). */
export function vocabularyFeatures(v: Vocabulary): FeatureNode[] {
  return v.concepts.map((c) => node({ text: c.label, polarity: 'present', code: c.code, valueCode: null, question: null, valueText: null, antecedent: null, concept: { vocabulary: c.vocabulary, forms: c.forms, xrefs: c.xrefs } }));
}

/**
 * A source's own coded concepts (OMOP observations and conditions) as coded-tier features: the
 * key the source's findings have (`c:SNOMED:…=`), read by the concept's name and synonyms; its
 * binned measurements as the bin findings its records carry (`c:LOINC:8867-4=T3`), so a note's
 * "HR 124" and the visit's heart-rate row are one feature.
 */
export function sourceConceptFeatures(concepts: readonly VocabularyConcept[]): FeatureNode[] {
  return concepts.map((c) =>
    c.bin
      ? node({ text: c.label, polarity: 'present', code: c.code, valueCode: c.bin.valueCode, question: c.bin.question, valueText: c.bin.valueText, antecedent: false, answerType: 'one-of', concept: { vocabulary: c.vocabulary, forms: c.forms } })
      : node({ text: c.label, polarity: 'present', code: c.code, valueCode: null, question: null, valueText: null, antecedent: null, concept: { vocabulary: c.vocabulary, forms: c.forms } }),
  );
}

export function noteVocabularies(parts: { ddxplus: DdxplusDictionary | null; lexicon: ConceptLexicon | null; phenotypes: Vocabulary[]; sourceConcepts?: readonly VocabularyConcept[] }): NoteVocabularies {
  const coded = parts.ddxplus ? ddxplusFeatures(parts.ddxplus) : [];
  const own = sourceConceptFeatures(parts.sourceConcepts ?? []);
  const features = [...coded, ...own, ...parts.phenotypes.flatMap(vocabularyFeatures)];
  const seen = new Set<string>();
  const unique = features.filter((f) => !seen.has(f.id) && seen.add(f.id));
  const used = [
    ...(own.length > 0 ? [{ name: 'source concepts', concepts: own.length, attribution: 'the source database\'s own concept table' }] : []),
    ...(parts.ddxplus ? [{ name: 'DDXPlus', concepts: coded.length, attribution: 'DDXPlus question set (Fansi Tchango et al., NeurIPS 2022), CC-BY 4.0, with the dxgraph lexicon' }] : []),
    ...parts.phenotypes.map((v) => ({ name: v.name, concepts: v.concepts.length, attribution: v.attribution })),
  ];
  return { snapshot: buildSnapshot({ categories: [], subcategories: [], diseases: [], features: unique, manifestations: [] }), lexicon: parts.lexicon, used };
}
