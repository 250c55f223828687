import type { DiagnosticKg } from '../src/domain/kg.js';
import type { DiseaseClusters } from './cluster-diseases.js';
import { featureIdOf } from './feature-key.js';
import type { Hierarchy } from './hierarchy-types.js';
import type { RecordRow } from './load-neo4j.js';
import { readSpool } from './scan-records.js';

/** Joins the stages' outputs into the DiagnosticKg (MedRAG eq. 6-7: G = G_D ∪ E_L4, E_L4 = E_L4d ∪ E_L4a). */
export function assemble(parts: {
  clusters: DiseaseClusters;
  hierarchy: Hierarchy;
  ehr: Pick<DiagnosticKg, 'features' | 'manifestations' | 'notesMentions'> & { notedRecords?: ReadonlyMap<string, number> };
  augmented: Pick<DiagnosticKg, 'features' | 'manifestations'>;
  keyDifferences: DiagnosticKg['keyDifferences'];
}): DiagnosticKg {
  const { clusters, hierarchy } = parts;
  return {
    categories: hierarchy.categories,
    subcategories: hierarchy.subcategories,
    diseases: clusters.diseases.map((d) => {
      const noted = parts.ehr.notedRecords?.get(d.id);
      return { ...d, subcategoryId: hierarchy.subcategoryOf.get(d.id)!, ...(noted !== undefined ? { notedRecords: noted } : {}) };
    }),
    features: [...parts.ehr.features, ...parts.augmented.features],
    manifestations: [...parts.ehr.manifestations, ...parts.augmented.manifestations],
    ...(parts.ehr.notesMentions?.length ? { notesMentions: parts.ehr.notesMentions } : {}),
    keyDifferences: parts.keyDifferences,
  };
}

export function kgCounts(kg: DiagnosticKg, records: number): Record<string, number> {
  return {
    categories: kg.categories.length,
    subcategories: kg.subcategories.length,
    diseases: kg.diseases.length,
    aliases: kg.diseases.reduce((s, d) => s + d.aliases.length, 0),
    features: kg.features.length,
    ehrFeatures: kg.features.filter((f) => f.kind === 'ehr').length,
    augmentedFeatures: kg.features.filter((f) => f.kind === 'augmented').length,
    manifestations: kg.manifestations.length,
    notesMentions: kg.notesMentions?.length ?? 0,
    keyDifferences: kg.keyDifferences.length,
    trainingRecords: records,
  };
}

/** `:Record` rows from the spool; merged free-text findings point at the node they were merged into. */
export async function* recordRows(spoolPath: string, clusters: DiseaseClusters, canonical: ReadonlyMap<string, string>): AsyncIterable<RecordRow> {
  // Feature ids memoized per finding key: a SHA-256 per finding of every record (2M at 100k
  // records) cost seconds of CPU while the load runs beside the index stages.
  const ids = new Map<string, string>();
  const idOf = (k: string) => {
    let id = ids.get(k);
    if (id === undefined) ids.set(k, (id = featureIdOf(canonical.get(k) ?? k)));
    return id;
  };
  for await (const row of readSpool(spoolPath)) {
    const diseaseId = clusters.diseaseOf.get(row.diagnosis);
    if (diseaseId) yield { id: row.id, diagnosis: row.diagnosis, diseaseId, featureIds: [...new Set(row.features.map(idOf))] };
  }
}

export function uniqueBy<T>(items: readonly T[], key: (t: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const t of items) if (!seen.has(key(t))) seen.set(key(t), t);
  return [...seen.values()];
}
