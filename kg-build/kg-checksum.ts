import { createHash } from 'node:crypto';
import type { GraphStore } from '../src/adapters/neo4j/graph-store.js';

/**
 * A checksum of the KG's node ids (with their labels), from the named read query
 * `query/kg-checksum`. Counts say a rerun wrote as many nodes; the checksum says it wrote
 * the same ones, e.g. after Neo4j was killed in the middle of a load and the build rerun.
 */
export interface KgChecksum {
  nodes: number;
  sha256: string;
}

export async function kgChecksum(graph: GraphStore): Promise<KgChecksum> {
  const rows = await graph.read('query/kg-checksum');
  const hash = createHash('sha256');
  // Labels sorted: Neo4j does not promise an order for labels(n).
  for (const r of rows) hash.update(`${String(r.id)}\u0000${[...(r.labels as string[])].sort().join(':')}\n`);
  return { nodes: rows.length, sha256: hash.digest('hex') };
}
