import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import type { KgSnapshot } from './kg-snapshot.js';

/**
 * Runs the differences-KG read (MedRAG eq. 14, differences-kg.ts) once when the server starts, so
 * Neo4j plans the query and the driver opens its connection before a clinician's first question:
 * on a fresh test server the first answer's differences-KG stage took 1.0 s and later ones
 * 0.1 s; with this warm-up done the first took 0.24 s (the whole first answer 1.27 -> 0.58 s,
 * load 9). The rows are dropped, not cached: the cache holds what queries read, so a Neo4j
 * outage still answers only the subcategories already asked.
 */
export async function warmDifferencesQuery(graph: Pick<GraphStore, 'read'>, snapshot: Pick<KgSnapshot, 'subcategories'>): Promise<void> {
  const first = snapshot.subcategories[0];
  if (first) await graph.read('query/differences-kg', { subcategoryId: first.id });
}
