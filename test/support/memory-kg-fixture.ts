import type { DiagnosticKg } from '../../src/domain/kg.js';
import type { KgSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * A snapshot by ids instead of positions: Cypher's collect() gives categories, subcategories and
 * diseases in an unspecified order, and every index of a snapshot follows that order. Two
 * snapshots of one KG read in different orders give the same canonical form; any other
 * difference (a field, a value, an edge) shows.
 */
export function canonicalSnapshot(s: KgSnapshot): Record<string, unknown> {
  const byId = <T extends { id: string }>(xs: readonly T[]) => [...xs].sort((a, b) => cmp(a.id, b.id));
  const ids = (xs: ArrayLike<number>, of: readonly { id: string }[]) => Array.from(xs, (i) => of[i]!.id).sort(cmp);
  const perDisease = <T>(f: (d: number) => T) => Object.fromEntries(s.diseases.map((d, i) => [d.id, f(i)]));
  const perFeature = <T>(f: (x: number) => T) => Object.fromEntries(s.features.map((x, i) => [x.id, f(i)]));
  const known = ['buildId', 'categories', 'subcategories', 'diseases', 'features', 'categoryIndex', 'subcategoryIndex', 'diseaseIndex', 'featureIndex', 'featureByCode', 'featureDegree', 'featureDiseases', 'diseaseSubcategory', 'subcategoryCategory', 'featureSubcategories', 'subcategoryDiseases', 'manifestations', 'notesMentions', 'totalRecords', 'meanFeaturesPerRecord'];
  const unknown = Object.keys(s).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new Error(`canonicalSnapshot: new snapshot fields ${unknown.join(', ')}: compare them too`);
  // The index maps must point at the node of their id.
  for (const [name, xs, index] of [['category', s.categories, s.categoryIndex], ['subcategory', s.subcategories, s.subcategoryIndex], ['disease', s.diseases, s.diseaseIndex], ['feature', s.features, s.featureIndex]] as const) {
    for (const [id, i] of index) if ((xs as readonly { id: string }[])[i]?.id !== id) throw new Error(`${name} index of ${id} points at ${i}`);
    if (index.size !== xs.length) throw new Error(`${name} index holds ${index.size} of ${xs.length}`);
  }
  return {
    buildId: s.buildId,
    categories: byId(s.categories),
    subcategories: byId(s.subcategories),
    diseases: byId(s.diseases),
    features: byId(s.features),
    featureByCode: Object.fromEntries([...s.featureByCode].map(([k, i]) => [k, s.features[i]!.id]).sort((a, b) => cmp(a[0]!, b[0]!))),
    featureDegree: perFeature((f) => s.featureDegree[f]),
    featureDiseases: perFeature((f) => ids(s.featureDiseases[f]!, s.diseases)),
    featureSubcategories: perFeature((f) => ids(s.featureSubcategories[f]!, s.subcategories)),
    diseaseSubcategory: perDisease((d) => s.subcategories[s.diseaseSubcategory[d]!]?.id ?? null),
    subcategoryCategory: Object.fromEntries(s.subcategories.map((x, i) => [x.id, s.categories[s.subcategoryCategory[i]!]?.id ?? null])),
    subcategoryDiseases: Object.fromEntries(s.subcategories.map((x, i) => [x.id, ids(s.subcategoryDiseases[i]!, s.diseases)])),
    manifestations: perDisease((d) => {
      const m = s.manifestations[d]!;
      const rows = Array.from(m.features, (f, j) => [s.features[f]!.id, m.prevalence[j], m.counts[j]] as const);
      if (m.position.size !== rows.length || [...m.position].some(([f, j]) => m.features[j] !== f)) throw new Error(`manifestation positions of ${s.diseases[d]!.id}`);
      return rows.sort((x, y) => cmp(x[0], y[0]));
    }),
    notesMentions: perDisease((d) => {
      const m = s.notesMentions[d];
      return m ? Array.from(m.features, (f, j) => [s.features[f]!.id, m.counts[j]] as const).sort((x, y) => cmp(x[0], y[0])) : null;
    }),
    totalRecords: s.totalRecords,
    meanFeaturesPerRecord: s.meanFeaturesPerRecord ?? null,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const feature = { kind: 'ehr' as const, code: null, valueCode: null, question: null, valueText: null, antecedent: null };

/**
 * What the Neo4j load reshapes, in one small KG: an id given twice (the last row's properties
 * win), a subcategory without its category and a disease without its subcategory (no IS_A: the
 * snapshot leaves them out), edges to nodes that do not exist, an augmented feature (the load
 * writes no forms or vocabulary for it), null and empty properties, key differences with a
 * missing or no feature.
 */
export const EDGE_CASE_KG: DiagnosticKg = {
  categories: [{ id: 'cat:1', name: 'Respiratory' }, { id: 'cat:2', name: 'Skin' }],
  subcategories: [
    { id: 'sub:1', name: 'Lower airways', categoryId: 'cat:1' },
    { id: 'sub:2', name: 'Rashes', categoryId: 'cat:2' },
    { id: 'sub:orphan', name: 'No category', categoryId: 'cat:missing' },
    { id: 'sub:1', name: 'Lower airways (renamed)', categoryId: 'cat:1' },
  ],
  diseases: [
    { id: 'dis:a', name: 'Bronchitis', subcategoryId: 'sub:1', icd10: 'J20', recordCount: 12, aliases: ['acute bronchitis', 'bronchitis'], ageBands: [1, 2, 3, 4, 0, 2], sexCounts: [5, 7], declaredEvidence: ['E_1', 'E_2'], knownEvidence: ['E_1', 'E_3'], knownRates: [0.545, 0.17], knowledgeSource: 'ORPHA:1 a disease (test)', notedRecords: 4 },
    { id: 'dis:b', name: 'Asthma', subcategoryId: 'sub:1', icd10: null, recordCount: 3, aliases: [], ageBands: null, sexCounts: null },
    { id: 'dis:c', name: 'Urticaria', subcategoryId: 'sub:2', icd10: 'L50', recordCount: 5, aliases: ['hives'], declaredEvidence: null, notedRecords: null },
    { id: 'dis:d', name: 'Lost', subcategoryId: 'sub:none', icd10: null, recordCount: 2, aliases: [] },
    { id: 'dis:e', name: 'Orphaned', subcategoryId: 'sub:orphan', icd10: null, recordCount: 1, aliases: [] },
  ],
  features: [
    { ...feature, id: 'feat:cough', text: 'cough', code: 'E_1', question: 'Cough?', answerType: 'yes-no', parentCode: null, antecedent: false },
    { ...feature, id: 'feat:wheeze', text: 'wheezing', code: 'HP:0030828', vocabulary: 'HPO', forms: ['wheeze', 'whistling breath'], fromNotes: true, xrefs: ['UMLS:C0043144'] },
    { ...feature, id: 'feat:emergent', text: 'hives on trunk', vocabulary: 'emergent', forms: [], fromNotes: true },
    { ...feature, id: 'feat:aug', text: 'itching at night', kind: 'augmented', vocabulary: 'HPO', forms: ['night itch'], fromNotes: true, answerType: 'yes-no' },
    { ...feature, id: 'feat:cough', text: 'productive cough', code: 'E_1', valueCode: 'V_1', question: 'Cough?', valueText: 'productive', answerType: 'one-of', parentCode: 'E_0', antecedent: true },
  ],
  manifestations: [
    { diseaseId: 'dis:a', featureId: 'feat:cough', prevalence: 0.9, count: 11, source: 'ehr' },
    { diseaseId: 'dis:a', featureId: 'feat:wheeze', prevalence: 0.4, count: 5, source: 'ehr' },
    { diseaseId: 'dis:a', featureId: 'feat:aug', prevalence: 0.35, count: 0, source: 'llm' },
    { diseaseId: 'dis:b', featureId: 'feat:wheeze', prevalence: 0.2, count: 1, source: 'ehr' },
    { diseaseId: 'dis:b', featureId: 'feat:cough', prevalence: 0.66, count: 2, source: 'ehr' },
    { diseaseId: 'dis:b', featureId: 'feat:wheeze', prevalence: 0.67, count: 2, source: 'ehr' },
    { diseaseId: 'dis:c', featureId: 'feat:emergent', prevalence: 0.8, count: 4, source: 'triples' },
    { diseaseId: 'dis:c', featureId: 'feat:missing', prevalence: 0.5, count: 2, source: 'ehr' },
    { diseaseId: 'dis:d', featureId: 'feat:cough', prevalence: 1, count: 2, source: 'ehr' },
    { diseaseId: 'dis:e', featureId: 'feat:cough', prevalence: 1, count: 1, source: 'ehr' },
  ],
  notesMentions: [
    { diseaseId: 'dis:a', featureId: 'feat:wheeze', count: 3 },
    { diseaseId: 'dis:a', featureId: 'feat:emergent', count: 1 },
    { diseaseId: 'dis:a', featureId: 'feat:missing', count: 2 },
  ],
  keyDifferences: [
    { id: 'kd:2', diseaseId: 'dis:a', contrastsWith: ['dis:b'], text: 'cough more common than in its siblings', featureId: 'feat:cough', prevalenceIn: 0.9, prevalenceSiblings: 0.66, source: 'statistical' },
    { id: 'kd:1', diseaseId: 'dis:a', contrastsWith: ['dis:b'], text: 'wheezing less common', featureId: 'feat:wheeze', prevalenceIn: 0.4, prevalenceSiblings: 0.67, source: 'statistical' },
    { id: 'kd:3', diseaseId: 'dis:b', contrastsWith: ['dis:a'], text: 'onset in childhood', featureId: null, prevalenceIn: null, prevalenceSiblings: null, source: 'llm' },
    { id: 'kd:4', diseaseId: 'dis:b', contrastsWith: [], text: 'about a feature the KG lacks', featureId: 'feat:missing', prevalenceIn: 0.5, prevalenceSiblings: null, source: 'statistical' },
    { id: 'kd:5', diseaseId: 'dis:d', contrastsWith: [], text: 'a disease without its subcategory', featureId: 'feat:cough', prevalenceIn: 1, prevalenceSiblings: 0.5, source: 'statistical' },
  ],
};
