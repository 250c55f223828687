import type { CategoryNode, DiagnosticKg, DiseaseNode, FeatureNode, SubcategoryNode } from '../domain/kg.js';

/**
 * The KG held in memory for the query side: read from Neo4j once at start-up so a
 * query never re-reads the whole graph. Indices (not ids) link the arrays; the upward
 * maps (feature → diseases → subcategory → category) are precomputed because voting
 * and scoring walk them for every matched feature.
 */
export interface DiseaseManifestations {
  /** Feature indices this disease has, ascending. */
  features: Int32Array;
  /** P(feature | disease), aligned with `features`. */
  prevalence: Float32Array;
  /** Training records of this disease showing the feature (0 for LLM-estimated edges). */
  counts: Int32Array;
  /** feature index → position in the arrays above. */
  position: Map<number, number>;
}

export interface KgSnapshot {
  buildId: string | null;
  categories: CategoryNode[];
  subcategories: SubcategoryNode[];
  diseases: DiseaseNode[];
  features: FeatureNode[];
  categoryIndex: Map<string, number>;
  subcategoryIndex: Map<string, number>;
  diseaseIndex: Map<string, number>;
  featureIndex: Map<string, number>;
  /** Coded provenance → feature index: `codeKey(code, valueCode)`. */
  featureByCode: Map<string, number>;
  /** Number of diseases with each feature (deg in MedRAG eq. 15). */
  featureDegree: Int32Array;
  /** Upward maps: feature → disease indices; disease → subcategory; subcategory → category. */
  featureDiseases: Int32Array[];
  diseaseSubcategory: Int32Array;
  subcategoryCategory: Int32Array;
  /** Feature → the subcategories at the shortest upward distance (eq. 12; ties kept). */
  featureSubcategories: Int32Array[];
  /** Subcategory → its disease indices (downward, for the differences KG and candidates). */
  subcategoryDiseases: Int32Array[];
  manifestations: DiseaseManifestations[];
  /**
   * Per disease, how its notes speak (NOTES_MENTION edges), for a disease whose records are partly
   * notes (DiseaseNode.notedRecords); null for every other disease. Read by the text view
   * (src/reasoners/text-view.ts).
   */
  notesMentions: ({ features: Int32Array; counts: Int32Array } | null)[];
  /** Sum of `recordCount` over diseases (for priors). */
  totalRecords: number;
  /** How many features a complete record has, where the edges' counts cannot say it (the text view); absent: from the counts. */
  meanFeaturesPerRecord?: number;
}

export { codeKey } from '../clinical-text/concepts/concept-set.js';
import { codeKey } from '../clinical-text/concepts/concept-set.js';

const indexBy = <T extends { id: string }>(xs: T[]) => new Map(xs.map((x, i) => [x.id, i] as const));

/**
 * Assemble a snapshot from plain KG data (rows read from Neo4j, or a test fixture), indexed in the
 * order the rows come. An answer breaks ties by index and sums over diseases in index order, so
 * served rows must come in one order whatever plan Neo4j picks: cypher/query/snapshot-*.cypher
 * and storedKg (kg-build/memory-snapshot.ts) give every tier and edge list in id order.
 */
export function buildSnapshot(kg: Pick<DiagnosticKg, 'categories' | 'subcategories' | 'diseases' | 'features' | 'manifestations' | 'notesMentions'>, buildId: string | null = null): KgSnapshot {
  const categoryIndex = indexBy(kg.categories);
  const subcategoryIndex = indexBy(kg.subcategories);
  const diseaseIndex = indexBy(kg.diseases);
  const featureIndex = indexBy(kg.features);
  const featureByCode = new Map<string, number>();
  kg.features.forEach((f, i) => {
    if (f.code) featureByCode.set(codeKey(f.code, f.valueCode), i);
  });

  const subcategoryCategory = Int32Array.from(kg.subcategories, (s) => categoryIndex.get(s.categoryId) ?? -1);
  const diseaseSubcategory = Int32Array.from(kg.diseases, (d) => subcategoryIndex.get(d.subcategoryId) ?? -1);
  const subDis: number[][] = kg.subcategories.map(() => []);
  diseaseSubcategory.forEach((s, d) => s >= 0 && subDis[s]!.push(d));

  const perDisease: { f: number; p: number; c: number }[][] = kg.diseases.map(() => []);
  const featDis: Set<number>[] = kg.features.map(() => new Set());
  for (const m of kg.manifestations) {
    const d = diseaseIndex.get(m.diseaseId);
    const f = featureIndex.get(m.featureId);
    if (d === undefined || f === undefined) continue;
    perDisease[d]!.push({ f, p: m.prevalence, c: m.count });
    featDis[f]!.add(d);
  }
  const manifestations = perDisease.map((edges) => {
    edges.sort((a, b) => a.f - b.f);
    return {
      features: Int32Array.from(edges, (e) => e.f),
      prevalence: Float32Array.from(edges, (e) => e.p),
      counts: Int32Array.from(edges, (e) => e.c),
      position: new Map(edges.map((e, i) => [e.f, i] as const)),
    };
  });
  const mentions: ({ f: number; c: number }[] | null)[] = kg.diseases.map((d) => (d.notedRecords ? [] : null));
  for (const m of kg.notesMentions ?? []) {
    const d = diseaseIndex.get(m.diseaseId);
    const f = featureIndex.get(m.featureId);
    if (d !== undefined && f !== undefined) mentions[d]?.push({ f, c: m.count });
  }
  const featureDiseases = featDis.map((s) => Int32Array.from([...s].sort((a, b) => a - b)));
  // In the four-tier graph every subcategory reached upward from a feature is at
  // distance 2 (feature → disease → subcategory), so all of them tie at the minimum.
  const featureSubcategories = featureDiseases.map((ds) => {
    const subs = new Set<number>();
    for (const d of ds) if (diseaseSubcategory[d]! >= 0) subs.add(diseaseSubcategory[d]!);
    return Int32Array.from([...subs].sort((a, b) => a - b));
  });

  return {
    buildId,
    categories: kg.categories,
    subcategories: kg.subcategories,
    diseases: kg.diseases,
    features: kg.features,
    categoryIndex,
    subcategoryIndex,
    diseaseIndex,
    featureIndex,
    featureByCode,
    featureDegree: Int32Array.from(featureDiseases, (ds) => ds.length),
    featureDiseases,
    diseaseSubcategory,
    subcategoryCategory,
    featureSubcategories,
    subcategoryDiseases: subDis.map((ds) => Int32Array.from(ds)),
    manifestations,
    notesMentions: mentions.map((ms) => (ms ? { features: Int32Array.from(ms, (m) => m.f), counts: Int32Array.from(ms, (m) => m.c) } : null)),
    totalRecords: kg.diseases.reduce((a, d) => a + d.recordCount, 0),
  };
}

/** Disease index → { subcategory name, category name } for the differential. */
export function diseaseLineage(s: KgSnapshot, d: number): { subcategory: string; category: string } {
  const sub = s.diseaseSubcategory[d]!;
  const cat = sub >= 0 ? s.subcategoryCategory[sub]! : -1;
  return { subcategory: sub >= 0 ? s.subcategories[sub]!.name : '', category: cat >= 0 ? s.categories[cat]!.name : '' };
}
