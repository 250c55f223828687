/**
 * Shared gate vocabulary. Labels follow FIND §3.2.1: A = critical for the diagnosis,
 * B = useful as a retrieval query though not decisive, C = unimportant.
 */
import type { DiagnoseResult } from '../query/contracts.js';

export type SentenceLabel = 'A' | 'B' | 'C';
export const SENTENCE_LABELS: readonly SentenceLabel[] = ['A', 'B', 'C'];

export type GateDecision = 'direct' | 'retrieve' | 'retrieve-warn';

/** Exactly what `/v1/diagnose` puts in `trace.gate`. */
export type GateTrace = NonNullable<DiagnoseResult['trace']['gate']>;

/** The gate's tunables; every one is configuration (DESIGN.md §4). */
export interface GateParams {
  alpha: number;
  beta: number;
  gamma: number;
  /** I_norm at or above theta1: answer directly. */
  theta1: number;
  /** I_norm at or above theta2 (and below theta1): full retrieval path; below: path + warning. */
  theta2: number;
}

/** FIND appendix B.3 values. ICA-RAG used theta1 0.3 / theta2 0.1. */
export const DEFAULT_GATE_PARAMS: Readonly<GateParams> = { alpha: 1.0, beta: 0.5, gamma: 0.1, theta1: 0.6, theta2: 0.3 };
