/**
 * The evaluation harness's data: one `EvalCase` per test patient (what the pipeline
 * answered against the truth), and the report shape written as JSON (docs/eval.md).
 * Cases carry ids and names only, never patient text.
 */
import type { InputKind } from '../calibration/temperature.js';
import type { CalibrationMetrics, ProbabilityCase } from './calibration-metrics.js';

import type { HeldOutReport } from './held-out.js';
import type { TestSourceReport } from './run-eval.js';
import type { DialogueMetrics } from './dialogue-metrics.js';

/** A disease placed in both hierarchies: the project's own (L3/L2/L1) and ICD-10. */
export interface DiseaseLevels {
  diseaseId: string;
  name: string;
  subcategoryId: string | null;
  categoryId: string | null;
  /** ICD-10 3-character category ("J18") and chapter ("X"), when the code is usable. */
  icdBlock: string | null;
  icdChapter: string | null;
}

/** The truth placed in the KG's hierarchy; `diseaseId` null when the KG has no such disease. */
export type TruthLevels = Omit<DiseaseLevels, 'diseaseId'> & { diseaseId: string | null };

export interface EvalCase {
  recordId: string;
  truth: TruthLevels;
  /** The differential's disease ids, best first (top-5 kept). */
  ranked: DiseaseLevels[];
  timingsMs: Record<string, number>;
  /** The gate's score and decision when the gate ran, else null. */
  gate: { score: number; decision: 'direct' | 'retrieve' | 'retrieve-warn' } | null;
  /** The pipeline's refusal (InputError message) when it answered nothing. */
  failed: string | null;
  /** Top-1 / true-diagnosis probabilities (calibration-metrics.ts); absent when the truth is not in the KG or nothing was answered. */
  probability?: ProbabilityCase;
}

/** Calibration of the shown probabilities (calibration-metrics.ts): full protocol, and interactive per question count. */
export interface CalibrationReport {
  full: CalibrationMetrics | null;
  interactive: Record<string, CalibrationMetrics> | null;
  /** Whether the build's calibration of the full protocol's input kind (`input_kind`) was applied: false shows the raw posterior. */
  calibrated: boolean;
  /** The input kinds the build's calibration covers ([] without one): a text-only calibration leaves coded cases raw. */
  calibrated_kinds: InputKind[];
  /** The full protocol's input: coded findings, or the records rendered as free text (`eval --input text`); absent in reports before it (coded). */
  input_kind?: InputKind;
}

export interface PerDisease {
  disease_id: string;
  disease: string;
  n: number;
  l3: number;
  top3: number;
}

export interface Confusion {
  truth_id: string;
  truth: string;
  predicted_id: string;
  predicted: string;
  count: number;
}

export interface LatencyStats {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface GateStats {
  n: number;
  direct_share: number;
  /** Top-1 (L3) over direct answers / over the others; null when there are none. */
  direct_accuracy: number | null;
  retrieve_accuracy: number | null;
  /** AUROC of the gate score against top-1 correctness; null when only one class occurs. */
  auroc: number | null;
}

export interface DialogueStats {
  n: number;
  ranker: string;
  confidence: number;
  /** Questions asked until the top disease first reached `confidence` (never reached = the maximum). */
  mean_questions_to_confident: number;
  reached_confident_share: number;
  accuracy_at_confident: number;
}

export interface EvalReport {
  schema: 'dxgraph-eval/1';
  n: number;
  /** Test patients whose diagnosis is not a disease of the KG (counted as misses). */
  n_unknown_truth: number;
  /** Test patients the pipeline refused (e.g. no findings at all): counted as misses. */
  n_failed: number;
  l1: number | null;
  l2: number | null;
  l3: number | null;
  top3: number | null;
  top5: number | null;
  l1_icd: number | null;
  l2_icd: number | null;
  /** Question count (as a string key) → top-1 accuracy; null when the protocol did not run. */
  interactive: Record<string, number> | null;
  interactive_stats: DialogueStats | null;
  /** The interactive protocol per disease (top-1 at each question count) and its mix-ups at the last count; null if not run. */
  interactive_metrics?: DialogueMetrics | null;
  /** Mask percentage ("0", "33", "66", "100") → question count → top-1 accuracy. */
  masking: Record<string, Record<string, number>> | null;
  /** Stage → latency statistics (ms) over the full-protocol queries; sessions under "session.*". */
  latency_ms: Record<string, LatencyStats>;
  per_disease: PerDisease[];
  confusions: Confusion[];
  gate: GateStats | null;
  /** Absent in reports written before issue 26. */
  calibration?: CalibrationReport;
  build: { buildId: string | null; source: string; embedder: string };
  /** The held-out side of the build's split that was evaluated (unit, counts per side); null: the test source was evaluated whole. */
  held_out?: HeldOutReport | null;
  /** What the test source gave (rows read, rows skipped by reason, notes read). */
  test_source?: TestSourceReport | null;
  params: Record<string, unknown>;
  seed: number;
  created_at: string;
}
