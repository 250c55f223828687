import type { FeatureNode } from '../../domain/kg.js';

/**
 * What the concept layer reads findings into: a set of features with their lookups. A KG
 * snapshot is one (the query side), the build's vocabularies are another (notes at build
 * time, kg-build/note-vocabularies.ts); the layer needs nothing else of either.
 */
export interface ConceptSet {
  features: FeatureNode[];
  /** Feature id → index in `features`. */
  featureIndex: Map<string, number>;
  /** Coded provenance → feature index: `codeKey(code, valueCode)`. */
  featureByCode: Map<string, number>;
}

export const codeKey = (code: string, valueCode: string | null): string => `${code}|${valueCode ?? ''}`;
