/**
 * Build-time threshold calibration for the gate (src/gate/calibrate-thresholds.ts), on
 * training records held out from the masking annotation. FIND's θ1 0.6 / θ2 0.3 assume its
 * label shares; ours depend on the diagnoser and the data, so θ1/θ2 are fitted to the pairs
 * (I_norm, was the direct answer correct) over each record's full text AND truncated versions
 * of it (its first 1, 2, 3, n/4 and n/2 sentences): a deployed gate sees both complete and
 * scant descriptions, and calibrating on complete ones only would put θ2 nowhere.
 * Truncations, not random subsets: I_norm is a density, so a random single sentence that
 * happens to be B scores 0.5 — above any complete record — while being a poor basis for an
 * answer; such samples leave no θ1 with 90% direct accuracy. A description cut short keeps the
 * writer's order (demographics and the complaint first), which is what scant inputs look like.
 * Scores use the query side's short-input floor (src/query/gate-short-input.ts).
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { calibrateThresholds, type CalibrationTargets } from '../src/gate/calibrate-thresholds.js';
import { createGate } from '../src/gate/gate.js';
import type { Diagnoser } from '../src/gate/masking-annotation.js';
import { segmentSentences } from '../src/gate/segment-sentences.js';
import type { SentenceClassifier } from '../src/gate/sentence-classifier.js';
import { DEFAULT_GATE_PARAMS } from '../src/gate/types.js';
import { flooredDensity } from '../src/query/gate-short-input.js';

export interface GateCalibration {
  /** Null when no threshold qualified (the configured ones stay). */
  thresholds: { theta1: number; theta2: number } | null;
  raw: { theta1: number | null; theta2: number | null };
  samples: number;
  directShare: number;
  /** Mean I_norm and direct-answer accuracy per input kind. */
  byKind: Record<string, { n: number; meanScore: number; accuracy: number }>;
}

export async function calibrateGate(
  input: { classifier: SentenceClassifier; embeddings: Embeddings; diagnoser: Diagnoser; records: readonly { id: string; diseaseId: string; text: string }[] },
  options: { targets?: Partial<CalibrationTargets> } = {},
): Promise<GateCalibration> {
  const gate = createGate({ classifier: input.classifier, embedder: input.embeddings, params: DEFAULT_GATE_PARAMS });
  const samples: { kind: string; score: number; correct: boolean }[] = [];
  for (const r of input.records) {
    const all = segmentSentences(r.text);
    if (all.length === 0) continue;
    const variants: [string, string[]][] = [['full', all]];
    for (const [kind, k] of [['1', 1], ['2', 2], ['3', 3], ['quarter', Math.ceil(all.length / 4)], ['half', Math.ceil(all.length / 2)]] as const) {
      if (k < all.length) variants.push([kind, all.slice(0, k)]);
    }
    for (const [kind, sentences] of variants) {
      const score = flooredDensity((await gate.assessSentences(sentences)).score, sentences.length);
      const answer = await input.diagnoser.diagnose(sentences);
      samples.push({ kind, score, correct: answer[0] === r.diseaseId });
    }
  }
  const c = calibrateThresholds(samples, options.targets ?? {});
  const theta1 = c.theta1 ?? DEFAULT_GATE_PARAMS.theta1;
  const thresholds = c.theta1 === null && c.theta2 === null ? null : { theta1, theta2: Math.min(c.theta2 ?? DEFAULT_GATE_PARAMS.theta2, theta1) };
  const byKind: GateCalibration['byKind'] = {};
  for (const kind of new Set(samples.map((s) => s.kind))) {
    const xs = samples.filter((s) => s.kind === kind);
    byKind[kind] = { n: xs.length, meanScore: xs.reduce((a, s) => a + s.score, 0) / xs.length, accuracy: xs.filter((s) => s.correct).length / xs.length };
  }
  return { thresholds, raw: { theta1: c.theta1, theta2: c.theta2 }, samples: samples.length, directShare: c.directShare, byKind };
}
