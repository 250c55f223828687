/**
 * Held-out evaluation of the sentence classifier against masking labels (issue 7 "classifier
 * accuracy per label"): per-label accuracy is the share of held-out sentences of that label
 * predicted as that label (recall); precision and a confusion matrix come along, and the
 * majority-label baseline shows whether the classifier beats always answering the commonest label.
 */
import type { SentenceClassifier, TrainingSentence } from './sentence-classifier.js';
import { SENTENCE_LABELS, type SentenceLabel } from './types.js';

export interface LabelMetrics {
  support: number;
  accuracy: number | null;
  precision: number | null;
}

export interface ClassifierMetrics {
  sentences: number;
  accuracy: number | null;
  majorityBaseline: number | null;
  perLabel: Record<SentenceLabel, LabelMetrics>;
  /** confusion[gold][predicted] */
  confusion: Record<SentenceLabel, Record<SentenceLabel, number>>;
  microsecondsPerSentence: number | null;
}

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

export function evaluateClassifier(c: SentenceClassifier, heldOut: readonly TrainingSentence[]): ClassifierMetrics {
  const zero = () => ({ A: 0, B: 0, C: 0 });
  const confusion = { A: zero(), B: zero(), C: zero() };
  const start = performance.now();
  const predicted = heldOut.map((s) => c.predict(s.vector, s.text).label);
  const elapsed = performance.now() - start;
  heldOut.forEach((s, i) => confusion[s.label][predicted[i]!]++);
  const perLabel = Object.fromEntries(
    SENTENCE_LABELS.map((l) => {
      const support = SENTENCE_LABELS.reduce((n, p) => n + confusion[l][p], 0);
      const predictedAs = SENTENCE_LABELS.reduce((n, g) => n + confusion[g][l], 0);
      return [l, { support, accuracy: ratio(confusion[l][l], support), precision: ratio(confusion[l][l], predictedAs) }];
    }),
  ) as Record<SentenceLabel, LabelMetrics>;
  const correct = SENTENCE_LABELS.reduce((n, l) => n + confusion[l][l], 0);
  const majority = Math.max(...SENTENCE_LABELS.map((l) => perLabel[l].support));
  return {
    sentences: heldOut.length,
    accuracy: ratio(correct, heldOut.length),
    majorityBaseline: ratio(majority, heldOut.length),
    perLabel,
    confusion,
    microsecondsPerSentence: heldOut.length === 0 ? null : (elapsed * 1000) / heldOut.length,
  };
}
