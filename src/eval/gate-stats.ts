/**
 * Gate statistics (DESIGN.md §5): share of queries answered directly, top-1 accuracy of
 * direct answers and of retrieved ones, and AUROC of the gate's I_norm against top-1
 * correctness. Null when no query carried a gate decision (the gate is off).
 */
import { auroc } from './auroc.js';
import { sameAt } from './metrics.js';
import type { EvalCase, GateStats } from './types.js';

export function gateStats(cases: readonly EvalCase[]): GateStats | null {
  const gated = cases.filter((c): c is EvalCase & { gate: NonNullable<EvalCase['gate']> } => c.gate !== null);
  if (gated.length === 0) return null;
  const correct = gated.map((c) => sameAt('diseaseId', c.truth, c.ranked[0]));
  const acc = (pick: (c: (typeof gated)[number]) => boolean): number | null => {
    const idx = gated.map((c, i) => (pick(c) ? i : -1)).filter((i) => i >= 0);
    return idx.length === 0 ? null : idx.filter((i) => correct[i]).length / idx.length;
  };
  const direct = (c: (typeof gated)[number]) => c.gate.decision === 'direct';
  return {
    n: gated.length,
    direct_share: gated.filter(direct).length / gated.length,
    direct_accuracy: acc(direct),
    retrieve_accuracy: acc((c) => !direct(c)),
    auroc: auroc(gated.map((c) => c.gate.score), correct),
  };
}
