import type { GateDecision, GateParams } from './types.js';

/**
 * Three-way decision from I_norm (FIND §3.2.1). Edges are inclusive on the upper side:
 *   I_norm ≥ θ1        → 'direct'         (no retrieval path)
 *   θ2 ≤ I_norm < θ1   → 'retrieve'       (full retrieval path)
 *   I_norm < θ2        → 'retrieve-warn'  (full path plus an "insufficient information" warning)
 * "≥" uses a tolerance of 1e-9 so that a score that is mathematically equal to a threshold
 * (e.g. 5.4/9 vs 0.6) lands on the upper side whatever the floating-point rounding.
 */
export const THRESHOLD_EPSILON = 1e-9;

export interface GateVerdict {
  decision: GateDecision;
  /** Safe to show a user: carries no patient text. */
  warning: string | null;
}

export function decideGate(score: number, t: Pick<GateParams, 'theta1' | 'theta2'>): GateVerdict {
  if (score >= t.theta1 - THRESHOLD_EPSILON) return { decision: 'direct', warning: null };
  if (score >= t.theta2 - THRESHOLD_EPSILON) return { decision: 'retrieve', warning: null };
  return {
    decision: 'retrieve-warn',
    warning:
      `Information density ${score.toFixed(2)} is below ${t.theta2}: the description is likely insufficient ` +
      'for a reliable diagnosis. Treat the differential as provisional and answer the follow-up questions.',
  };
}

/** Validates threshold order once, where parameters are built (config / request). */
export function checkThresholds(t: Pick<GateParams, 'theta1' | 'theta2'>): string | null {
  if (!(t.theta2 >= 0 && t.theta1 >= t.theta2 && t.theta1 <= 1)) return `gate thresholds need 0 ≤ theta2 ≤ theta1 ≤ 1 (got theta1=${t.theta1}, theta2=${t.theta2})`;
  return null;
}
