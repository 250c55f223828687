import { DirectedGraph } from 'graphology';
import type { DiagnosticKg } from '../src/domain/kg.js';
import { KgConsistencyError } from './errors.js';

/**
 * The KG in memory (graphology) before anything touches Neo4j: tier structure, dangling
 * references, duplicate ids and orphan features are found here, where they are cheap to
 * report, instead of as half-loaded graphs. Also yields each feature's degree (number of
 * diseases with it), which the query side uses for discriminability (eq. 15-16).
 */
export interface CheckedKg {
  graph: DirectedGraph;
  /** feature id -> number of diseases with a HAS_MANIFESTATION edge to it */
  degree: Map<string, number>;
}

type Tier = 'Category' | 'Subcategory' | 'Disease' | 'Feature' | 'KeyDifference';

export function checkKg(kg: DiagnosticKg): CheckedKg {
  const g = new DirectedGraph({ allowSelfLoops: false });
  const problems: string[] = [];
  const addNode = (id: string, tier: Tier, attrs: Record<string, unknown>) => {
    if (g.hasNode(id)) problems.push(`duplicate id ${id}`);
    else g.addNode(id, { tier, ...attrs });
  };
  const addEdge = (from: string, to: string, type: string, want: [Tier, Tier], attrs: Record<string, unknown> = {}) => {
    for (const [id, tier] of [[from, want[0]], [to, want[1]]] as const) {
      if (!g.hasNode(id)) return void problems.push(`${type} edge ${from} -> ${to}: unknown ${tier} ${id}`);
      if (g.getNodeAttribute(id, 'tier') !== tier) return void problems.push(`${type} edge ${from} -> ${to}: ${id} is not a ${tier}`);
    }
    const key = `${type}:${from}->${to}`;
    if (g.hasEdge(key)) problems.push(`duplicate ${type} edge ${from} -> ${to}`);
    else g.addDirectedEdgeWithKey(key, from, to, { type, ...attrs });
  };

  for (const c of kg.categories) addNode(c.id, 'Category', { label: c.name });
  for (const s of kg.subcategories) addNode(s.id, 'Subcategory', { label: s.name });
  for (const d of kg.diseases) addNode(d.id, 'Disease', { label: d.name });
  for (const f of kg.features) addNode(f.id, 'Feature', { label: f.text, kind: f.kind });
  for (const k of kg.keyDifferences) addNode(k.id, 'KeyDifference', { label: k.text });
  for (const s of kg.subcategories) addEdge(s.id, s.categoryId, 'IS_A', ['Subcategory', 'Category']);
  for (const d of kg.diseases) addEdge(d.id, d.subcategoryId, 'IS_A', ['Disease', 'Subcategory']);
  for (const m of kg.manifestations) {
    if (!(m.prevalence >= 0 && m.prevalence <= 1)) problems.push(`prevalence ${m.prevalence} out of [0,1] on ${m.diseaseId} -> ${m.featureId}`);
    addEdge(m.diseaseId, m.featureId, 'HAS_MANIFESTATION', ['Disease', 'Feature'], { prevalence: m.prevalence, count: m.count });
  }
  for (const k of kg.keyDifferences) {
    addEdge(k.diseaseId, k.id, 'HAS_KEY_DIFFERENCE', ['Disease', 'KeyDifference']);
    for (const other of k.contrastsWith) addEdge(k.id, other, 'CONTRASTS_WITH', ['KeyDifference', 'Disease']);
    if (k.featureId !== null) addEdge(k.id, k.featureId, 'ABOUT', ['KeyDifference', 'Feature']);
  }

  const degree = new Map<string, number>();
  g.forEachNode((id, a) => {
    if (a.tier === 'Feature') {
      const d = g.filterInNeighbors(id, (n, na) => na.tier === 'Disease').length;
      degree.set(id, d);
      if (d === 0) problems.push(`orphan feature ${id} (no disease has it)`);
    } else if (a.tier === 'Disease' && g.outDegree(id) === 0) problems.push(`disease ${id} has no subcategory`);
    else if (a.tier === 'Subcategory' && g.inDegree(id) === 0) problems.push(`empty subcategory ${id}`);
    else if (a.tier === 'Category' && g.inDegree(id) === 0) problems.push(`empty category ${id}`);
  });
  if (problems.length > 0) throw new KgConsistencyError(problems);
  return { graph: g, degree };
}
