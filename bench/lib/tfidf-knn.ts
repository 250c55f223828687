import { InputError } from '../../src/errors.js';

/**
 * The free-text bench's baseline (issue 17, "Measure"): plain TF-IDF over word unigrams and
 * bigrams (sublinear tf, smoothed idf, L2-normalised rows, i.e. scikit-learn's
 * TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True) with its default token rule of two
 * or more word characters), cosine k-nearest neighbours over labelled training texts, and
 * labels ranked by the summed similarity of the k nearest. Written out here rather than taken
 * from a library because the baseline must be exactly this, small and fixed: a library's
 * defaults (stemming, stop words, other idf forms) would move the bar dxgraph is measured
 * against.
 */
export interface LabeledText {
  text: string;
  label: string;
}

export interface Neighbour {
  index: number;
  label: string;
  similarity: number;
}

export interface RankedLabel {
  label: string;
  score: number;
}

/** Word tokens (letters and digits, two or more) and the bigrams of consecutive tokens. */
export function terms(text: string): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w.length >= 2);
  const out = [...words];
  for (let i = 0; i + 1 < words.length; i++) out.push(`${words[i]} ${words[i + 1]}`);
  return out;
}

export function counts(xs: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** Euclidean norm of a sparse row's weights (a loop: spreading a long row into Math.hypot can overflow the stack). */
function l2(row: readonly (readonly [number, number])[]): number {
  let s = 0;
  for (const [, w] of row) s += w * w;
  return Math.sqrt(s);
}

export class TfidfKnn {
  private constructor(
    private readonly vocab: Map<string, number>,
    private readonly idf: Float64Array,
    /** term id → (doc indices, weights): an inverted index, so a query touches only its own terms' documents. */
    private readonly postings: { docs: number[]; weights: number[] }[],
    private readonly labels: readonly string[],
    readonly k: number,
  ) {}

  static fit(docs: readonly LabeledText[], opts: { k?: number } = {}): TfidfKnn {
    const k = opts.k ?? 10;
    if (!Number.isInteger(k) || k < 1) throw new InputError(`k must be a positive integer, got ${k}`, { field: 'k' });
    if (docs.length === 0) throw new InputError('TF-IDF kNN needs at least one training text', { field: 'docs' });
    const tfs = docs.map((d) => counts(terms(d.text)));
    const vocab = new Map<string, number>();
    const df: number[] = [];
    for (const tf of tfs) {
      for (const t of tf.keys()) {
        let id = vocab.get(t);
        if (id === undefined) vocab.set(t, (id = df.push(0) - 1));
        df[id]!++;
      }
    }
    const n = docs.length;
    const idf = Float64Array.from(df, (d) => Math.log((1 + n) / (1 + d)) + 1);
    const postings = df.map(() => ({ docs: [] as number[], weights: [] as number[] }));
    tfs.forEach((tf, doc) => {
      const row = [...tf].map(([t, c]) => [vocab.get(t)!, (1 + Math.log(c)) * idf[vocab.get(t)!]!] as const);
      const norm = l2(row) || 1;
      for (const [id, w] of row) {
        postings[id]!.docs.push(doc);
        postings[id]!.weights.push(w / norm);
      }
    });
    return new TfidfKnn(vocab, idf, postings, docs.map((d) => d.label), k);
  }

  /** The k most similar training texts (cosine), most similar first; ties by training order. Terms never seen in training are ignored. */
  neighbours(text: string): Neighbour[] {
    const row = [...counts(terms(text))].flatMap(([t, c]) => {
      const id = this.vocab.get(t);
      return id === undefined ? [] : [[id, (1 + Math.log(c)) * this.idf[id]!] as const];
    });
    const norm = l2(row);
    if (norm === 0) return [];
    const sims = new Float64Array(this.labels.length);
    for (const [id, w] of row) {
      const p = this.postings[id]!;
      for (let i = 0; i < p.docs.length; i++) sims[p.docs[i]!]! += (w / norm) * p.weights[i]!;
    }
    const hit: number[] = [];
    sims.forEach((s, i) => s > 0 && hit.push(i));
    hit.sort((a, b) => sims[b]! - sims[a]! || a - b);
    return hit.slice(0, this.k).map((i) => ({ index: i, label: this.labels[i]!, similarity: sims[i]! }));
  }

  /** Labels of the k nearest ranked by summed similarity (ties by label); empty when no term is known. */
  rank(text: string): RankedLabel[] {
    const sum = new Map<string, number>();
    for (const nb of this.neighbours(text)) sum.set(nb.label, (sum.get(nb.label) ?? 0) + nb.similarity);
    return [...sum].map(([label, score]) => ({ label, score })).sort((a, b) => b.score - a.score || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  }
}
