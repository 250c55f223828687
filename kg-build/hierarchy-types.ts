import type { CategoryNode, FeatureNode, ManifestationEdge, SubcategoryNode } from '../src/domain/kg.js';
import type { ClusteredDisease } from './cluster-diseases.js';

/** L1/L2 of the four-tier KG plus the L3 -> L2 assignment (MedRAG eq. 4). */
export interface Hierarchy {
  mode: HierarchyMode;
  categories: CategoryNode[];
  subcategories: SubcategoryNode[];
  /** disease id -> subcategory id */
  subcategoryOf: Map<string, string>;
  /** Why this mode (hierarchy-choice.ts); set by aggregateHierarchy, printed and recorded on the KgBuild node. */
  reason?: string;
}

export type HierarchyMode = 'statistical' | 'icd10' | 'llm';

/** What every hierarchy strategy gets: the diseases and their EHR manifestation profiles. */
export interface HierarchyInput {
  diseases: readonly ClusteredDisease[];
  features: readonly FeatureNode[];
  manifestations: readonly ManifestationEdge[];
}

export interface HierarchySizes {
  /** Number of L2 subcategories; 'auto' = round(1.6·sqrt(n)) (49 diseases -> 11). */
  subcategories: number | 'auto';
  /** Number of L1 categories; 'auto' = round(1.3·sqrt(L2)) (11 -> 4). */
  categories: number | 'auto';
}

export function resolveSizes(n: number, sizes: HierarchySizes): { l2: number; l1: number } {
  const clamp = (v: number, max: number) => Math.max(1, Math.min(max, Math.round(v)));
  const l2 = clamp(sizes.subcategories === 'auto' ? 1.6 * Math.sqrt(n) : sizes.subcategories, n);
  const l1 = clamp(sizes.categories === 'auto' ? 1.3 * Math.sqrt(l2) : sizes.categories, l2);
  return { l2, l1 };
}
