/** Assembles the stable JSON report (shape documented in docs/eval.md) from the protocols' outcomes. */
import type { BuildManifest } from '../domain/artifacts.js';
import type { DialogueOutcome } from './dialogue-protocols.js';
import { gateStats } from './gate-stats.js';
import { accuracyMetrics, confusions, perDisease } from './metrics.js';
import { latencyByStage, latencyStats } from './percentile.js';
import type { EvalParams } from './run-eval.js';
import type { DialogueStats, EvalCase, EvalReport } from './types.js';

const byCount = (acc: Record<number, number>): Record<string, number> => Object.fromEntries(Object.entries(acc).map(([k, v]) => [String(k), v]));

export function dialogueStats(o: DialogueOutcome, confidence: number): DialogueStats {
  const n = o.runs.length;
  return {
    n,
    ranker: o.row.ranker,
    confidence,
    mean_questions_to_confident: o.row.meanQuestionsToConfidence,
    reached_confident_share: n === 0 ? 0 : o.runs.filter((r) => r.questionsToConfidence !== null).length / n,
    accuracy_at_confident: o.row.accuracyAtConfidence,
  };
}

export interface ReportParts {
  cases: readonly EvalCase[];
  interactive: DialogueOutcome | null;
  masking: ReadonlyMap<number, DialogueOutcome>;
  params: EvalParams;
  confidence: number;
  manifest: BuildManifest;
  buildId: string | null;
  n: number;
}

export function assembleReport(p: ReportParts): EvalReport {
  const ran = p.params.protocols.includes('full');
  const acc = accuracyMetrics(p.cases);
  const latency = latencyByStage(p.cases.filter((c) => c.failed === null).map((c) => c.timingsMs));
  const dialogues = [p.interactive, ...p.masking.values()].filter((d): d is DialogueOutcome => d !== null);
  if (dialogues.length > 0) {
    latency['session.start'] = latencyStats(dialogues.flatMap((d) => d.startMs));
    latency['session.answer'] = latencyStats(dialogues.flatMap((d) => d.answerMs));
  }
  const { allowContentDuplicates, ...params } = p.params;
  return {
    schema: 'dxgraph-eval/1',
    n: p.n,
    n_unknown_truth: ran ? acc.n_unknown_truth : 0,
    n_failed: p.cases.filter((c) => c.failed !== null).length,
    l1: ran ? acc.l1 : null,
    l2: ran ? acc.l2 : null,
    l3: ran ? acc.l3 : null,
    top3: ran ? acc.top3 : null,
    top5: ran ? acc.top5 : null,
    l1_icd: ran ? acc.l1_icd : null,
    l2_icd: ran ? acc.l2_icd : null,
    interactive: p.interactive ? byCount(p.interactive.row.accuracy) : null,
    interactive_stats: p.interactive ? dialogueStats(p.interactive, p.confidence) : null,
    masking: p.masking.size > 0 ? Object.fromEntries([...p.masking].map(([rate, o]) => [String(Math.round(rate * 100)), byCount(o.row.accuracy)])) : null,
    latency_ms: latency,
    per_disease: perDisease(p.cases),
    confusions: confusions(p.cases),
    gate: gateStats(p.cases),
    build: { buildId: p.buildId ?? p.manifest.buildId, source: p.manifest.source, embedder: p.manifest.embedder },
    params: { ...params, allow_content_duplicates: allowContentDuplicates },
    seed: p.params.seed,
    created_at: new Date().toISOString(),
  };
}
