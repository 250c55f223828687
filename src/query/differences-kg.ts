import neo4j from 'neo4j-driver';
import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import type { Triple } from './contracts.js';

/**
 * Diagnostic differences KG (MedRAG eq. 14): for the chosen subcategory e_L2s, the
 * (disease, HAS_MANIFESTATION, feature) triples of its diseases and their key
 * differences, read from Neo4j in one round trip (cypher/query/differences-kg.cypher). LIMIT needs a
 * Neo4j integer, hence `neo4j.int`.
 */
export interface DifferencesKgInput {
  subcategoryId: string;
  /** Manifestation triples kept per disease (most prevalent first) to bound the LLM prompt. */
  perDisease: number;
}

export interface DifferencesKgOutput {
  triples: Triple[];
}

type Edge = { relation: string; object: string; objectId: string | null; weight: number | null };

export async function differencesKg(graph: Pick<GraphStore, 'read'>, input: DifferencesKgInput): Promise<DifferencesKgOutput> {
  const rows = await graph.read('query/differences-kg', { subcategoryId: input.subcategoryId, perDisease: neo4j.int(Math.max(0, Math.floor(input.perDisease))) });
  const triples: Triple[] = [];
  for (const row of rows) {
    const subject = String(row.disease);
    const subjectId = String(row.diseaseId);
    for (const e of [...((row.manifestations as Edge[]) ?? []), ...((row.differences as Edge[]) ?? [])]) {
      if (!e) continue;
      triples.push({ subject, subjectId, relation: e.relation, object: e.object, objectId: e.objectId ?? null, weight: e.weight === null || e.weight === undefined ? null : Number(e.weight) });
    }
  }
  return { triples };
}
