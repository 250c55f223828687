/**
 * The A/B/C sentence classifier (FIND eq. 1, p_i = Classifier(s_i)): multinomial logistic
 * regression over [embedding ‖ cheap features]. FIND fine-tunes Mengzi-T5; a linear model
 * over the build's embedder keeps the gate well under a millisecond per sentence and needs
 * no model download. Training: mini-batch Adam with class weights (balanced) and L2, with a
 * seeded shuffle, so the same data and seed give the same weights.
 */
import { N_EXTRA, featurize, writeExtraFeatures } from './sentence-features.js';
import { SENTENCE_LABELS, type SentenceLabel } from './types.js';
import { seededRandom } from '../util/rng.js';

const K = SENTENCE_LABELS.length;

export interface Prediction {
  label: SentenceLabel;
  /** Softmax probabilities in SENTENCE_LABELS order (A, B, C). */
  probs: [number, number, number];
}

export interface ClassifierTrainOptions {
  epochs: number;
  batchSize: number;
  learningRate: number;
  l2: number;
  seed: number;
  /** 'balanced' weighs each label by n / (3 · n_label), so rare A labels still count. */
  classWeights: 'balanced' | 'none';
}

export const DEFAULT_TRAIN_OPTIONS: ClassifierTrainOptions = { epochs: 20, batchSize: 32, learningRate: 0.02, l2: 1e-4, seed: 1, classWeights: 'balanced' };

export interface TrainingSentence {
  vector: Float32Array;
  text: string;
  label: SentenceLabel;
}

export class SentenceClassifier {
  /** Row-major K × (dim + N_EXTRA). */
  readonly weights: Float32Array;
  readonly bias: Float32Array;
  private readonly scratch: Float32Array;

  constructor(
    readonly embedderId: string,
    readonly dim: number,
    weights: Float32Array,
    bias: Float32Array,
  ) {
    if (weights.length !== K * (dim + N_EXTRA) || bias.length !== K) throw new RangeError(`classifier shape mismatch for dim ${dim}`);
    this.weights = weights;
    this.bias = bias;
    this.scratch = new Float32Array(N_EXTRA);
  }

  predict(vector: Float32Array, text: string): Prediction {
    if (vector.length !== this.dim) throw new RangeError(`embedding has ${vector.length} dimensions, classifier expects ${this.dim}`);
    writeExtraFeatures(text, this.scratch, 0);
    const D = this.dim + N_EXTRA;
    const z = [0, 0, 0];
    for (let k = 0; k < K; k++) {
      const row = k * D;
      let s = this.bias[k]!;
      for (let j = 0; j < this.dim; j++) s += this.weights[row + j]! * vector[j]!;
      for (let j = 0; j < N_EXTRA; j++) s += this.weights[row + this.dim + j]! * this.scratch[j]!;
      z[k] = s;
    }
    const probs = softmax(z) as [number, number, number];
    let best = 0;
    for (let k = 1; k < K; k++) if (probs[k]! > probs[best]!) best = k;
    return { label: SENTENCE_LABELS[best]!, probs };
  }

  static train(data: readonly TrainingSentence[], opts: { embedderId: string; dim: number } & Partial<ClassifierTrainOptions>): SentenceClassifier {
    const o = { ...DEFAULT_TRAIN_OPTIONS, ...opts };
    const D = o.dim + N_EXTRA;
    const xs = data.map((d) => featurize(d.vector, d.text));
    if (xs.some((x) => x.length !== D)) throw new RangeError(`training vectors must have ${o.dim} dimensions`);
    const ys = data.map((d) => SENTENCE_LABELS.indexOf(d.label));
    const counts = [0, 0, 0];
    for (const y of ys) counts[y]!++;
    const cw = counts.map((c) => (o.classWeights === 'none' || c === 0 ? 1 : data.length / (K * c)));

    const P = K * D + K; // weights then biases, one Adam state over both
    const theta = new Float32Array(P);
    const m = new Float32Array(P);
    const v = new Float32Array(P);
    const grad = new Float32Array(P);
    const rng = mulberry32(o.seed);
    const order = ys.map((_, i) => i);
    let step = 0;
    for (let epoch = 0; epoch < o.epochs; epoch++) {
      shuffle(order, rng);
      for (let start = 0; start < order.length; start += o.batchSize) {
        const batch = order.slice(start, start + o.batchSize);
        grad.fill(0);
        for (const i of batch) {
          const x = xs[i]!;
          const p = softmax([0, 1, 2].map((k) => dot(theta, k * D, x, D) + theta[K * D + k]!));
          const w = cw[ys[i]!]! / batch.length;
          for (let k = 0; k < K; k++) {
            const g = (p[k]! - (k === ys[i] ? 1 : 0)) * w;
            axpy(grad, k * D, x, D, g);
            grad[K * D + k]! += g;
          }
        }
        for (let j = 0; j < K * D; j++) grad[j]! += o.l2 * theta[j]!;
        adamStep(theta, grad, m, v, ++step, o.learningRate);
      }
    }
    return new SentenceClassifier(opts.embedderId, o.dim, theta.slice(0, K * D), theta.slice(K * D));
  }
}

/** Σ_j a[offset + j] · x[j]: small hot helpers stay monomorphic and get optimised. */
function dot(a: Float32Array, offset: number, x: Float32Array, n: number): number {
  let s = 0;
  for (let j = 0; j < n; j++) s += a[offset + j]! * x[j]!;
  return s;
}

/** a[offset + j] += g · x[j]. */
function axpy(a: Float32Array, offset: number, x: Float32Array, n: number, g: number): void {
  for (let j = 0; j < n; j++) a[offset + j]! += g * x[j]!;
}

function softmax(z: number[]): number[] {
  const max = Math.max(...z);
  const e = z.map((x) => Math.exp(x - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

function adamStep(theta: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, t: number, lr: number): void {
  const b1 = 0.9;
  const b2 = 0.999;
  const c1 = 1 - b1 ** t;
  const c2 = 1 - b2 ** t;
  for (let j = 0; j < theta.length; j++) {
    m[j] = b1 * m[j]! + (1 - b1) * g[j]!;
    v[j] = b2 * v[j]! + (1 - b2) * g[j]! * g[j]!;
    theta[j]! -= (lr * (m[j]! / c1)) / (Math.sqrt(v[j]! / c2) + 1e-8);
  }
}

/** Small, fast, seedable PRNG: the same seed shuffles the same way on every platform. */
export const mulberry32 = seededRandom;

function shuffle(a: number[], rng: () => number): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
}

