import type { FeatureNode, ManifestationEdge } from '../src/domain/kg.js';

/**
 * What the notes taught the KG, disease by disease (issue 47): for a reader of the build report,
 * whether a small corpus kept what distinguishes each disease. Per disease with notes: how many
 * notes, how many features only notes taught it (after the support rules and the budget), and the
 * best-backed of them (most of its records first). cypher/explore/09-what-notes-taught-per-disease.cypher
 * shows the same from Neo4j.
 */
export interface DiseaseLearnt {
  diseaseId: string;
  notes: number;
  features: number;
  /** Feature texts, best-backed first (ties by text). */
  top: string[];
}

export function notesLearntPerDisease(input: { noted: ReadonlyMap<string, number>; features: readonly FeatureNode[]; manifestations: readonly ManifestationEdge[] }, top = 5): DiseaseLearnt[] {
  const text = new Map(input.features.filter((f) => f.fromNotes).map((f) => [f.id, f.text]));
  const edges = new Map<string, { text: string; count: number }[]>();
  for (const e of input.manifestations) {
    const t = text.get(e.featureId);
    if (t !== undefined) edges.set(e.diseaseId, [...(edges.get(e.diseaseId) ?? []), { text: t, count: e.count }]);
  }
  return [...input.noted.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0].localeCompare(b[0])).map(([diseaseId, notes]) => {
    const mine = (edges.get(diseaseId) ?? []).sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
    return { diseaseId, notes, features: mine.length, top: mine.slice(0, top).map((e) => e.text) };
  });
}
