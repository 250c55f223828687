import type { GraphStore, Row } from '../adapters/neo4j/graph-store.js';
import { shippedVoice } from '../presentation/shipped-voice.js';
import { keyDifferenceText } from '../presentation/key-difference-text.js';
import { isClinicalLabel } from '../presentation/voice-checks.js';
import type { Triple } from './contracts.js';
import { manifestationStrength, MIN_SHOWN_PREVALENCE } from './manifestation-strength.js';

/**
 * Diagnostic differences KG (MedRAG eq. 14): for the chosen subcategory e_L2s, the
 * (disease, HAS_MANIFESTATION, feature) triples of its diseases and their key
 * differences, read from Neo4j in one round trip (cypher/query/differences-kg.cypher).
 * Manifestations shown (issue 48 item 3) are those present in at least 30% of the disease's
 * records, strongest first (manifestation-strength.ts: common in the disease, rarer in its
 * siblings; LLM-augmented features first, as MedRAG's L4a) and named by a readable clinical label
 * (src/presentation/; a concept without one is not shown); a key difference's figures kept after
 * its feature's label.
 */
export interface DifferencesKgInput {
  subcategoryId: string;
  /** Manifestation triples kept per disease (strongest first) to bound the LLM prompt. */
  perDisease: number;
}

export interface DifferencesKgOutput {
  triples: Triple[];
}

type Edge = {
  relation: string;
  object: string;
  objectId: string | null;
  weight: number | null;
  kind?: string | null;
  featureText?: string | null;
  code?: string | null;
  valueCode?: string | null;
  question?: string | null;
  valueText?: string | null;
};

const weightOf = (e: Edge): number | null => (e.weight === null || e.weight === undefined ? null : Number(e.weight));

function labelOf(e: Edge, text: string): string {
  return shippedVoice().label({ text, code: e.code ?? null, valueCode: e.valueCode ?? null, question: e.question ?? null, valueText: e.valueText ?? null });
}

export async function differencesKg(graph: Pick<GraphStore, 'read'>, input: DifferencesKgInput): Promise<DifferencesKgOutput> {
  return differencesFromRows(await graph.read('query/differences-kg', { subcategoryId: input.subcategoryId }), input);
}

/** The ranking and labels over differences-kg.cypher's rows (read from Neo4j, or memory-differences.ts's from a KG in memory). */
export function differencesFromRows(rows: readonly Row[], input: DifferencesKgInput): DifferencesKgOutput {
  const perDisease = Math.max(0, Math.floor(input.perDisease));
  const edges = rows.map((row) => ({ subject: String(row.disease), subjectId: String(row.diseaseId), manifestations: ((row.manifestations as Edge[]) ?? []).filter(Boolean), differences: ((row.differences as Edge[]) ?? []).filter(Boolean) }));
  // Each feature's prevalence per disease of the subcategory, for the siblings' mean.
  const prevalence = new Map<string, number>();
  for (const d of edges) for (const e of d.manifestations) if (e.objectId) prevalence.set(`${d.subjectId}\u0000${e.objectId}`, weightOf(e) ?? 0);
  const triples: Triple[] = [];
  for (const d of edges) {
    const siblings = edges.filter((o) => o.subjectId !== d.subjectId);
    const ranked = d.manifestations
      .filter((e) => (weightOf(e) ?? 0) >= MIN_SHOWN_PREVALENCE)
      .map((e) => ({ ...e, label: labelOf(e, e.object) }))
      // A concept whose label is no readable clinical phrase (an emergent "ua") is not shown.
      .filter((e) => isClinicalLabel(e.label))
      .map((e) => {
        const p = weightOf(e) ?? 0;
        const pSib = siblings.length === 0 ? p : siblings.reduce((s, o) => s + (prevalence.get(`${o.subjectId}\u0000${e.objectId}`) ?? 0), 0) / siblings.length;
        return { e, augmented: e.kind === 'augmented', strength: manifestationStrength(p, pSib) };
      })
      .sort((a, b) => Number(b.augmented) - Number(a.augmented) || b.strength - a.strength || String(a.e.objectId).localeCompare(String(b.e.objectId)))
      .slice(0, perDisease);
    for (const { e } of ranked) triples.push({ subject: d.subject, subjectId: d.subjectId, relation: e.relation, object: e.label, objectId: e.objectId ?? null, weight: weightOf(e) });
    for (const e of d.differences) triples.push({ subject: d.subject, subjectId: d.subjectId, relation: e.relation, object: keyDifferenceText(e.object, e.featureText ? { text: e.featureText, code: e.code ?? null, valueCode: e.valueCode ?? null, question: e.question ?? null, valueText: e.valueText ?? null } : null), objectId: e.objectId ?? null, weight: weightOf(e) });
  }
  return { triples };
}
