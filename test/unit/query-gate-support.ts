/** Shared by the query-gate unit tests (not a test file itself). */
import { SentenceClassifier } from '../../src/gate/sentence-classifier.js';
import { N_EXTRA } from '../../src/gate/sentence-features.js';
import type { SentenceLabel } from '../../src/gate/types.js';

/** A real classifier whose biases alone decide: every sentence gets `label`. */
export function constantClassifier(label: SentenceLabel, dim: number): SentenceClassifier {
  const bias = Float32Array.from(['A', 'B', 'C'].map((l) => (l === label ? 5 : 0)));
  return new SentenceClassifier('test-embedder', dim, new Float32Array(3 * (dim + N_EXTRA)), bias);
}
