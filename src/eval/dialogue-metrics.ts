/**
 * Per-disease accuracy and mix-ups of a dialogue protocol (interactive), as the full protocol
 * has them (metrics.ts): on a hospital's own KG the interactive curve alone does not say which
 * diseases the questions help and which they confuse (issue 25). Ids and names only.
 */
import type { DialogueRun } from '../followups/simulate.js';
import type { Confusion } from './types.js';

export interface DialoguePerDisease {
  disease_id: string;
  disease: string;
  n: number;
  /** Question count (string key) → top-1 accuracy over this disease's patients. */
  top1: Record<string, number>;
}

export interface DialogueMetrics {
  /** The question count the mix-ups are read at (the largest of --questions). */
  at: number;
  per_disease: DialoguePerDisease[];
  confusions: Confusion[];
}

/** `truth`: record id → the true disease (id '' / unknown:… when the KG lacks it); `name`: a KG disease id → its name. */
export function dialogueMetrics(runs: readonly DialogueRun[], truth: (recordId: string) => { id: string; name: string }, name: (diseaseId: string) => string, checkpoints: readonly number[], limit = 20): DialogueMetrics {
  const at = Math.max(0, ...checkpoints);
  const groups = new Map<string, { name: string; runs: DialogueRun[] }>();
  for (const r of runs) {
    const t = truth(r.recordId);
    const g = groups.get(t.id) ?? { name: t.name, runs: [] };
    g.runs.push(r);
    groups.set(t.id, g);
  }
  const per_disease = [...groups].map(([id, g]) => ({
    disease_id: id, disease: g.name, n: g.runs.length,
    top1: Object.fromEntries(checkpoints.map((k) => [String(k), g.runs.filter((r) => r.topAt.get(k) === id).length / g.runs.length])),
  })).sort((a, b) => b.n - a.n || a.disease.localeCompare(b.disease));
  const pairs = new Map<string, Confusion>();
  for (const r of runs) {
    const t = truth(r.recordId);
    const p = r.topAt.get(at) ?? '';
    if (p === '' || p === t.id) continue;
    const key = `${t.id}\u0000${p}`;
    const e = pairs.get(key) ?? { truth_id: t.id, truth: t.name, predicted_id: p, predicted: name(p), count: 0 };
    e.count++;
    pairs.set(key, e);
  }
  const confusions = [...pairs.values()].sort((a, b) => b.count - a.count || a.truth.localeCompare(b.truth) || a.predicted.localeCompare(b.predicted)).slice(0, limit);
  return { at, per_disease, confusions };
}
