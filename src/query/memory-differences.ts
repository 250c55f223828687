import type { GraphStore, Row } from '../adapters/neo4j/graph-store.js';
import { ServiceUnavailableError } from '../errors.js';
import type { KgSnapshot } from './kg-snapshot.js';
import type { DiagnosticKg, FeatureNode, KeyDifferenceNode } from '../domain/kg.js';
import { cachedDifferences, type DifferencesKgReader } from './differences-kg-cache.js';
import { differencesFromRows } from './differences-kg.js';

/**
 * The differences KG (MedRAG eq. 14) of a KG held in memory: the rows
 * cypher/query/differences-kg.cypher returns once the build's load wrote that KG, ranked and
 * labelled by the same code (differences-kg.ts). The calibration's fit KGs never reach Neo4j
 * (src/calibration/cross-fit.ts); this is the `differences` dependency their query service gets.
 * As in Neo4j, MERGE keeps one node per id (the last row's properties) and an edge only between
 * nodes the load wrote; test/int/memory-kg.test.ts checks the output equals Neo4j's.
 */
export function memoryDifferencesKg(kg: DiagnosticKg): DifferencesKgReader {
  const rows = differencesRows(kg);
  // Ranked once per subcategory and limit, as the served reader is (differences-kg-cache.ts).
  return cachedDifferences(async (input) => differencesFromRows(rows.get(input.subcategoryId) ?? [], input), { maxEntries: 4096 });
}

/** Subcategory id → its diseases' rows, ordered by disease name as the query orders them. */
export function differencesRows(kg: DiagnosticKg): Map<string, Row[]> {
  const last = <T>(xs: readonly T[], key: (x: T) => string) => new Map(xs.map((x) => [key(x), x] as const));
  const subcategories = last(kg.subcategories, (s) => s.id);
  const features = last(kg.features.filter((f) => f.kind === 'ehr' || f.kind === 'augmented'), (f) => f.id);
  const diseases = last(kg.diseases, (d) => d.id);
  const manifestations = new Map<string, Row[]>();
  for (const m of last(kg.manifestations, (e) => `${e.diseaseId}\u0000${e.featureId}`).values()) {
    const f = features.get(m.featureId);
    if (!f || !diseases.has(m.diseaseId)) continue;
    push(manifestations, m.diseaseId, { relation: 'HAS_MANIFESTATION', object: f.text, objectId: f.id, weight: m.prevalence, kind: f.kind, ...provenance(f) });
  }
  // A key difference node per id (its last row's properties), an edge from every disease that names it.
  const keyDifferences = last(kg.keyDifferences, (k) => k.id);
  const edges = new Set(kg.keyDifferences.filter((k) => diseases.has(k.diseaseId)).map((k) => `${k.diseaseId}\u0000${k.id}`));
  const differences = new Map<string, Row[]>();
  for (const key of [...edges].sort(byKdId)) {
    const [diseaseId, kdId] = key.split('\u0000') as [string, string];
    push(differences, diseaseId, differenceRow(keyDifferences.get(kdId)!, features));
  }
  const out = new Map<string, Row[]>();
  const named = [...diseases.values()].filter((d) => subcategories.has(d.subcategoryId)).sort((a, b) => compare(a.name, b.name) || compare(a.id, b.id));
  for (const d of named) push(out, d.subcategoryId, { diseaseId: d.id, disease: d.name, manifestations: manifestations.get(d.id) ?? [], differences: differences.get(d.id) ?? [] });
  return out;
}

function differenceRow(k: KeyDifferenceNode, features: Map<string, FeatureNode>): Row {
  const f = k.featureId === null ? undefined : features.get(k.featureId);
  const weight = k.prevalenceIn === null || k.prevalenceSiblings === null ? null : k.prevalenceIn - k.prevalenceSiblings;
  return { relation: 'HAS_KEY_DIFFERENCE', object: k.text, objectId: k.featureId ?? null, weight, featureText: f?.text ?? null, ...(f ? provenance(f) : { code: null, valueCode: null, question: null, valueText: null }) };
}

const provenance = (f: FeatureNode) => ({ code: f.code ?? null, valueCode: f.valueCode ?? null, question: f.question ?? null, valueText: f.valueText ?? null });

/** Cypher orders strings by UTF-16 code unit, as `<` does (not localeCompare). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byKdId = (a: string, b: string) => compare(a.slice(a.indexOf('\u0000') + 1), b.slice(b.indexOf('\u0000') + 1));

function push<T>(m: Map<string, T[]>, key: string, x: T): void {
  const xs = m.get(key);
  if (xs) xs.push(x);
  else m.set(key, [x]);
}

/** A KG the query side answers from without Neo4j: its snapshot (kg-build/memory-snapshot.ts) and its differences KG. */
export interface MemoryKg {
  snapshot: KgSnapshot;
  differences: DifferencesKgReader;
}

/** The graph a query service on a MemoryKg is given: nothing may read Neo4j, and a read that tried would say so. */
export const NO_NEO4J: Pick<GraphStore, 'read'> = {
  read: async (name) => {
    throw new ServiceUnavailableError('neo4j', `query ${name}: this query service answers from a KG in memory, not from Neo4j`);
  },
};
