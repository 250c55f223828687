/**
 * Accuracy metrics over evaluated cases (DESIGN.md §5, MedRAG §5-6): top-1 at L3
 * (disease), L2 (same subcategory) and L1 (same category) on the KG's hierarchy and on
 * ICD-10; top-3 / top-5; per-disease accuracy; the most frequent mix-ups.
 * A correct disease counts as correct at every coarser level, so L3 ≤ L2 ≤ L1 always.
 */
import type { Confusion, DiseaseLevels, EvalCase, EvalReport, PerDisease } from './types.js';

/** The accuracy part of the report: the JSON shape is declared once, in types.ts. */
export type AccuracyMetrics = Pick<EvalReport, 'n' | 'n_unknown_truth' | 'l1' | 'l2' | 'l3' | 'top3' | 'top5' | 'l1_icd' | 'l2_icd'>;

type Level = 'diseaseId' | 'subcategoryId' | 'categoryId' | 'icdBlock' | 'icdChapter';

/** Top-1 at one level: the same non-null value on that level, or the very same disease. */
export function sameAt(level: Level, truth: EvalCase['truth'], pred: DiseaseLevels | undefined): boolean {
  if (!pred || (truth.diseaseId === null && level === 'diseaseId')) return false;
  if (truth.diseaseId !== null && pred.diseaseId === truth.diseaseId) return true;
  const t = truth[level];
  return t !== null && t === pred[level];
}

export function inTopK(c: EvalCase, k: number): boolean {
  return c.truth.diseaseId !== null && c.ranked.slice(0, k).some((r) => r.diseaseId === c.truth.diseaseId);
}

const share = (cases: readonly EvalCase[], hit: (c: EvalCase) => boolean): number | null => (cases.length === 0 ? null : cases.filter(hit).length / cases.length);

export function accuracyMetrics(cases: readonly EvalCase[]): AccuracyMetrics {
  const at = (level: Level) => share(cases, (c) => sameAt(level, c.truth, c.ranked[0]));
  // ICD-10 levels only mean something when the source has codes.
  const hasIcd = cases.some((c) => c.truth.icdBlock !== null);
  return {
    n: cases.length,
    n_unknown_truth: cases.filter((c) => c.truth.diseaseId === null).length,
    l3: at('diseaseId'),
    l2: at('subcategoryId'),
    l1: at('categoryId'),
    top3: share(cases, (c) => inTopK(c, 3)),
    top5: share(cases, (c) => inTopK(c, 5)),
    l2_icd: hasIcd ? at('icdBlock') : null,
    l1_icd: hasIcd ? at('icdChapter') : null,
  };
}

const truthKey = (c: EvalCase): string => c.truth.diseaseId ?? `unknown:${c.truth.name}`;

export function perDisease(cases: readonly EvalCase[]): PerDisease[] {
  const groups = new Map<string, EvalCase[]>();
  for (const c of cases) (groups.get(truthKey(c)) ?? groups.set(truthKey(c), []).get(truthKey(c))!).push(c);
  return [...groups]
    .map(([id, cs]) => ({ disease_id: id, disease: cs[0]!.truth.name, n: cs.length, l3: share(cs, (c) => sameAt('diseaseId', c.truth, c.ranked[0]))!, top3: share(cs, (c) => inTopK(c, 3))! }))
    .sort((a, b) => b.n - a.n || a.disease.localeCompare(b.disease));
}

/** The most frequent (truth, top-1) pairs with a wrong top-1, most frequent first. */
export function confusions(cases: readonly EvalCase[], limit = 20): Confusion[] {
  const pairs = new Map<string, Confusion>();
  for (const c of cases) {
    const p = c.ranked[0];
    if (!p || p.diseaseId === c.truth.diseaseId) continue;
    const key = `${truthKey(c)}\u0000${p.diseaseId}`;
    const e = pairs.get(key) ?? { truth_id: truthKey(c), truth: c.truth.name, predicted_id: p.diseaseId, predicted: p.name, count: 0 };
    e.count++;
    pairs.set(key, e);
  }
  return [...pairs.values()].sort((a, b) => b.count - a.count || a.truth.localeCompare(b.truth) || a.predicted.localeCompare(b.predicted)).slice(0, limit);
}
