/**
 * Build-time gate training stage: masking annotation (FIND §3.2.2) of training records →
 * sentence embeddings → A/B/C classifier → per-label metrics on held-out records → both
 * saved. The split is by record (never by sentence), so held-out sentences come from records
 * the classifier never saw. A build with too few labels returns an error value; the server
 * then runs with the gate off ('auto' mode), which is the safe default.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Embeddings } from '@langchain/core/embeddings';
import { err, ok, type Result } from '../result.js';
import { saveClassifier } from './classifier-store.js';
import { evaluateClassifier, type ClassifierMetrics } from './gate-metrics.js';
import { annotateByMasking, type AnnotationOptions, type AnnotationResult, type Diagnoser, type RetrievalProbe } from './masking-annotation.js';
import { segmentSentences } from './segment-sentences.js';
import { mulberry32, SentenceClassifier, type ClassifierTrainOptions, type TrainingSentence } from './sentence-classifier.js';

export interface GateTrainingExample {
  /** Record id (excluded from its own retrieval probe). */
  id: string;
  text: string;
  goldDiseaseId: string;
}

export interface TrainGateOptions {
  annotation: Partial<AnnotationOptions>;
  classifier: Partial<ClassifierTrainOptions>;
  /** Share of annotated records held out for the metrics. */
  heldOutFraction: number;
  seed: number;
  /** Fewer annotated sentences than this (or a label with none) → no classifier. */
  minSentences: number;
}

export const DEFAULT_TRAIN_GATE: TrainGateOptions = { annotation: {}, classifier: {}, heldOutFraction: 0.2, seed: 1, minSentences: 50 };

export interface GateTrainingReport {
  embedder: string;
  annotation: AnnotationResult['stats'];
  trainSentences: number;
  heldOut: ClassifierMetrics;
  trainMs: number;
}

export async function trainGate(
  examples: readonly GateTrainingExample[],
  services: { diagnoser: Diagnoser; probe: RetrievalProbe; embedder: Embeddings; embedderId: string },
  out: { classifierPath: string; metricsPath: string },
  options: Partial<TrainGateOptions> = {},
): Promise<Result<{ classifier: SentenceClassifier; report: GateTrainingReport }, string>> {
  const opts = { ...DEFAULT_TRAIN_GATE, ...options };
  const annotated = await annotateByMasking(
    examples.map((e) => ({ id: e.id, goldDiseaseId: e.goldDiseaseId, sentences: segmentSentences(e.text) })),
    { diagnoser: services.diagnoser, probe: services.probe },
    opts.annotation,
  );
  const labels = annotated.stats.labels;
  if (annotated.sentences.length < opts.minSentences || labels.A === 0 || labels.B + labels.C === 0) {
    return err(`gate training needs ≥ ${opts.minSentences} annotated sentences with both A and non-A labels (got A=${labels.A} B=${labels.B} C=${labels.C})`);
  }

  const vectors = (await services.embedder.embedDocuments(annotated.sentences.map((s) => s.text))).map((v) => Float32Array.from(v));
  const dim = vectors[0]!.length;
  const heldOutIds = pickHeldOut([...new Set(annotated.sentences.map((s) => s.exampleId))], opts.heldOutFraction, opts.seed);
  const train: TrainingSentence[] = [];
  const test: TrainingSentence[] = [];
  annotated.sentences.forEach((s, i) => (heldOutIds.has(s.exampleId) ? test : train).push({ vector: vectors[i]!, text: s.text, label: s.label }));

  const t0 = performance.now();
  const classifier = SentenceClassifier.train(train, { seed: opts.seed, ...opts.classifier, embedderId: services.embedderId, dim });
  const trainMs = performance.now() - t0;
  const report: GateTrainingReport = { embedder: services.embedderId, annotation: annotated.stats, trainSentences: train.length, heldOut: evaluateClassifier(classifier, test), trainMs };

  await saveClassifier(out.classifierPath, classifier);
  await mkdir(dirname(out.metricsPath), { recursive: true });
  await writeFile(out.metricsPath, JSON.stringify(report, null, 2) + '\n', 'utf8');
  return ok({ classifier, report });
}

/** A seeded choice of whole records to hold out (at least one when there are two or more). */
function pickHeldOut(ids: string[], fraction: number, seed: number): Set<string> {
  const rng = mulberry32(seed ^ 0x5eed);
  const shuffled = [...ids].sort();
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const n = ids.length < 2 ? 0 : Math.max(1, Math.round(ids.length * fraction));
  return new Set(shuffled.slice(0, n));
}
