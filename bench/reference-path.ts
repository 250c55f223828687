import { UndirectedGraph } from 'graphology';
import { bidirectional } from 'graphology-shortest-path/unweighted.js';
import { FaissVectorIndex } from '../src/adapters/faiss/vector-index.js';
import type { InputFinding } from '../src/query/contracts.js';
import { embedBatch, type TextEmbedder } from '../src/query/embed.js';
import type { KgSnapshot } from '../src/query/kg-snapshot.js';

/**
 * A straightforward reimplementation of the reference MedRAG query path, for the
 * side-by-side ratio (bench/run.ts). Per query, as the reference code does it:
 *   matching  — embed the findings, exact cosine against EVERY feature node in plain JS,
 *               keep the top-m above t_matching (eq. 9-11);
 *   voting    — for every matched feature, for each of its diseases, a shortest path
 *               (graphology bidirectional BFS) to EVERY subcategory node of the in-memory
 *               KG; the feature votes for the subcategories at the shortest distance (eq. 12-13);
 *   retrieval — a FAISS flat index REBUILT over all record vectors, then top-k.
 * Feature vectors and the in-memory graph are prepared once (the reference does too);
 * nothing else is precomputed. Same inputs and parameters as dxgraph's stages.
 */
export interface ReferenceData {
  snapshot: KgSnapshot;
  embedder: TextEmbedder;
  featureVectors: Float32Array[];
  graph: UndirectedGraph;
  recordIds: string[];
  /** All record vectors, row-major. */
  recordVectors: Float32Array;
  dim: number;
}

export interface ReferenceOutcome {
  winner: string | null;
  retrieved: string[];
  ms: { match: number; vote: number; retrieve: number; total: number };
}

/** The four-tier KG as an undirected graphology graph (node keys are the KG ids). */
export function referenceGraph(s: KgSnapshot): UndirectedGraph {
  const g = new UndirectedGraph();
  for (const x of [...s.categories, ...s.subcategories, ...s.diseases, ...s.features]) g.mergeNode(x.id);
  s.subcategories.forEach((sub, i) => s.subcategoryCategory[i]! >= 0 && g.mergeEdge(sub.id, s.categories[s.subcategoryCategory[i]!]!.id));
  s.diseases.forEach((d, i) => s.diseaseSubcategory[i]! >= 0 && g.mergeEdge(d.id, s.subcategories[s.diseaseSubcategory[i]!]!.id));
  s.featureDiseases.forEach((ds, f) => ds.forEach((d) => g.mergeEdge(s.features[f]!.id, s.diseases[d]!.id)));
  return g;
}

export async function referenceQuery(data: ReferenceData, q: { text: string; findings: InputFinding[]; topM: number; threshold: number; topK: number }): Promise<ReferenceOutcome> {
  const t0 = performance.now();
  const texts = q.findings.map((f) => f.text);
  const vectors = await embedBatch(data.embedder, texts);
  const matched: { featureId: string; present: boolean }[] = [];
  vectors.forEach((v, fi) => {
    const scored = data.featureVectors.map((fv, i) => ({ i, s: cosine(v, fv) }));
    scored.sort((a, b) => b.s - a.s);
    for (const { i, s } of scored.slice(0, q.topM)) if (s > q.threshold) matched.push({ featureId: data.snapshot.features[i]!.id, present: q.findings[fi]!.polarity === 'present' });
  });
  const t1 = performance.now();

  const votes = new Map<string, number>();
  for (const featureId of new Set(matched.filter((m) => m.present).map((m) => m.featureId))) {
    let best = Infinity;
    let nearest: string[] = [];
    for (const disease of data.graph.neighbors(featureId)) {
      for (const sub of data.snapshot.subcategories) {
        const path = bidirectional(data.graph, disease, sub.id);
        const d = path ? path.length : Infinity; // feature→disease adds 1 to every path alike
        if (d < best) [best, nearest] = [d, [sub.id]];
        else if (d === best && !nearest.includes(sub.id)) nearest.push(sub.id);
      }
    }
    for (const s of nearest) votes.set(s, (votes.get(s) ?? 0) + 1 / nearest.length);
  }
  const winner = [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  const t2 = performance.now();

  const index = FaissVectorIndex.build({ kind: 'flat', dim: data.dim, ids: data.recordIds, vectors: data.recordVectors });
  const [qv] = await embedBatch(data.embedder, [q.text]);
  const retrieved = index.search(qv!, q.topK).map((h) => h.id);
  const t3 = performance.now();
  return { winner, retrieved, ms: { match: t1 - t0, vote: t2 - t1, retrieve: t3 - t2, total: t3 - t0 } };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
