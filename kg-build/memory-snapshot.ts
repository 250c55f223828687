import type { CategoryNode, DiagnosticKg, DiseaseNode, FeatureNode, ManifestationEdge, NotesMentionEdge, SubcategoryNode } from '../src/domain/kg.js';
import { buildSnapshot, type KgSnapshot } from '../src/query/kg-snapshot.js';

/**
 * The query side's snapshot of a KG the build assembled, made in memory instead of read back
 * from Neo4j: what `loadSnapshot` (src/query/load-snapshot.ts) returns after `loadNeo4j` wrote
 * the same KG. The calibration's fit KGs (src/calibration/cross-fit.ts) are answered from it, so
 * a server reading the same Neo4j only ever sees served builds, and the fit pays no load.
 *
 * It mirrors the round trip, not just the data: cypher/build/merge-*.cypher MERGE by id (the last
 * row's properties win), create an edge only when both ends exist, store no null property and
 * give augmented features no notes provenance; cypher/query/snapshot-*.cypher keep a subcategory
 * or disease only with its IS_A edge and return every tier and edge list in id order.
 * test/int/memory-kg.test.ts checks it equals what Neo4j gives back, as it comes.
 */
export function memorySnapshot(kg: DiagnosticKg, buildId: string): KgSnapshot {
  return buildSnapshot(storedKg(kg), buildId);
}

/** The KG's tiers as the snapshot queries return them, before buildSnapshot indexes them. */
export function storedKg(kg: DiagnosticKg): Pick<DiagnosticKg, 'categories' | 'subcategories' | 'diseases' | 'features' | 'manifestations' | 'notesMentions'> {
  const categories = lastById(kg.categories);
  const subcategories = lastById(kg.subcategories);
  const diseases = lastById(kg.diseases);
  // merge-ehr-features / merge-augmented-features load only these two kinds.
  const features = lastById(kg.features.filter((f) => f.kind === 'ehr' || f.kind === 'augmented'));
  const featureIds = new Set(features.map((f) => f.id));
  const diseaseIds = new Set(diseases.map((d) => d.id));
  // An edge is written only between nodes the load wrote (merge-manifestations' OPTIONAL MATCHes).
  const inGraph = <E extends { diseaseId: string; featureId: string }>(xs: readonly E[]) => lastBy(xs.filter((e) => diseaseIds.has(e.diseaseId) && featureIds.has(e.featureId)), (e) => `${e.diseaseId}\u0000${e.featureId}`);
  const categoryIds = new Set(categories.map((c) => c.id));
  const subcategoryIds = new Set(subcategories.map((s) => s.id));
  return {
    categories: categories.sort(byId).map((c): CategoryNode => ({ id: c.id, name: c.name })),
    subcategories: subcategories.filter((s) => categoryIds.has(s.categoryId)).sort(byId).map((s): SubcategoryNode => ({ id: s.id, name: s.name, categoryId: s.categoryId })),
    diseases: diseases.filter((d) => subcategoryIds.has(d.subcategoryId)).sort(byId).map(storedDisease),
    features: features.sort(byId).map(storedFeature),
    manifestations: inGraph(kg.manifestations).sort(byEnds).map((m): ManifestationEdge => ({ diseaseId: m.diseaseId, featureId: m.featureId, prevalence: m.prevalence, count: Math.trunc(m.count ?? 0), source: m.source ?? 'ehr' })),
    notesMentions: inGraph(kg.notesMentions ?? []).sort(byEnds).map((m): NotesMentionEdge => ({ diseaseId: m.diseaseId, featureId: m.featureId, count: Math.trunc(m.count) })),
  };
}

/** The disease row of snapshot-hierarchy.cypher as loadSnapshot normalises it. */
function storedDisease(d: DiseaseNode): DiseaseNode {
  return {
    id: d.id, name: d.name, subcategoryId: d.subcategoryId, icd10: d.icd10 ?? null, recordCount: Math.trunc(d.recordCount ?? 0), aliases: d.aliases ?? [],
    ageBands: d.ageBands ?? null, sexCounts: d.sexCounts ?? null, declaredEvidence: d.declaredEvidence ? d.declaredEvidence.map(String) : null, knownEvidence: d.knownEvidence ?? null, knownRates: d.knownRates ?? null, knowledgeSource: d.knowledgeSource ?? null, notedRecords: d.notedRecords ?? null,
  };
}

/** The feature row of snapshot-features.cypher: merge-augmented-features writes no answer type or notes provenance. */
function storedFeature(f: FeatureNode): FeatureNode {
  const ehr = f.kind === 'ehr';
  return {
    id: f.id, text: f.text, kind: f.kind, code: f.code ?? null, valueCode: f.valueCode ?? null, question: f.question ?? null, valueText: f.valueText ?? null, antecedent: f.antecedent ?? null,
    answerType: ehr ? (f.answerType ?? null) : null, parentCode: ehr ? (f.parentCode ?? null) : null, vocabulary: ehr ? (f.vocabulary ?? null) : null,
    forms: ehr ? (f.forms ?? null) : null, fromNotes: ehr ? (f.fromNotes ?? null) : null, xrefs: ehr ? (f.xrefs ?? null) : null,
  };
}

// Cypher's ORDER BY on strings and these comparisons agree on the ids' code units.
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: { id: string }, b: { id: string }) => order(a.id, b.id);
const byEnds = (a: { diseaseId: string; featureId: string }, b: { diseaseId: string; featureId: string }) => order(a.diseaseId, b.diseaseId) || order(a.featureId, b.featureId);

/** MERGE by id then SET: one node per id, at its first row's place, with its last row's properties. */
export function lastById<T extends { id: string }>(xs: readonly T[]): T[] {
  return lastBy(xs, (x) => x.id);
}

function lastBy<T>(xs: readonly T[], key: (x: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const x of xs) byKey.set(key(x), x);
  return [...byKey.values()];
}
