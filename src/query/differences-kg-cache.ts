import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import { differencesKg, type DifferencesKgInput, type DifferencesKgOutput } from './differences-kg.js';

/**
 * The differences KG (MedRAG eq. 14) of a subcategory, read from Neo4j once per query
 * service and then served from memory. Why this is safe: a query service answers from the
 * KG snapshot it loaded at start-up (its build id checked against the FAISS artifacts), and
 * a build's KG never changes under its build id, so re-reading the same triples per query
 * bought nothing but a Neo4j round trip (44-100 ms per query at 100k records under load,
 * docs/benchmarks.md). It also keeps the answers consistent with the snapshot if Neo4j is
 * rebuilt under a running server. A failed read is never cached: the next query asks Neo4j
 * again, so an outage gives 503 for subcategories not yet read and recovers by itself.
 */
export type DifferencesKgReader = (input: DifferencesKgInput) => Promise<DifferencesKgOutput>;

export interface DifferencesKgCacheOptions {
  /** Entries kept (subcategory × per-disease limit); the oldest is dropped past this. */
  maxEntries: number;
}

export function cachedDifferencesKg(graph: Pick<GraphStore, 'read'>, opts: DifferencesKgCacheOptions): DifferencesKgReader {
  return cachedDifferences((input) => differencesKg(graph, input), opts);
}

/** Any reader kept per subcategory and limit (Neo4j's above; a KG in memory's, memory-differences.ts). */
export function cachedDifferences(read: DifferencesKgReader, opts: DifferencesKgCacheOptions): DifferencesKgReader {
  const entries = new Map<string, Promise<DifferencesKgOutput>>();
  return (input) => {
    const key = `${input.perDisease}\u0000${input.subcategoryId}`;
    const hit = entries.get(key);
    if (hit) return hit;
    // Concurrent first queries for one subcategory share a single read.
    const reading = read(input);
    entries.set(key, reading);
    reading.catch(() => entries.delete(key));
    if (entries.size > opts.maxEntries) entries.delete(entries.keys().next().value!);
    return reading;
  };
}

/** No cache: every query reads Neo4j (DXGRAPH_DIFFERENCES_CACHE=false). */
export function uncachedDifferencesKg(graph: Pick<GraphStore, 'read'>): DifferencesKgReader {
  return (input) => differencesKg(graph, input);
}
