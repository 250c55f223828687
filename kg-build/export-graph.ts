import { writeFile } from 'node:fs/promises';
import type { DirectedGraph } from 'graphology';
import { write as writeGexf } from 'graphology-gexf';

/** Writes the checked in-memory KG as GEXF (Gephi, Cytoscape): tiers as the `tier` node attribute. */
export async function exportGexf(graph: DirectedGraph, path: string): Promise<void> {
  await writeFile(path, writeGexf(graph, { formatNode: (key, attrs) => ({ label: String(attrs.label ?? key), attributes: { tier: attrs.tier, kind: attrs.kind ?? '' } }) }));
}
