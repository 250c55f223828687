import { InputError } from '../../src/errors.js';
import { counts as tally, terms, type LabeledText, type RankedLabel } from './tfidf-knn.js';

/**
 * The second notes baseline (issue 24): TF-IDF nearest centroid (scikit-learn's
 * TfidfVectorizer as in tfidf-knn.ts + NearestCentroid on cosine): each label's centroid is the
 * mean of its training rows, L2-normalised; labels rank by cosine to the query row.
 */
export class TfidfCentroid {
  private constructor(
    private readonly vocab: Map<string, number>,
    private readonly idf: Float64Array,
    private readonly centroids: { label: string; weights: Map<number, number> }[],
  ) {}

  static fit(docs: readonly LabeledText[]): TfidfCentroid {
    if (docs.length === 0) throw new InputError('TF-IDF centroid needs at least one training text', { field: 'docs' });
    const tfs = docs.map((d) => tally(terms(d.text)));
    const vocab = new Map<string, number>();
    const df: number[] = [];
    for (const tf of tfs) for (const t of tf.keys()) {
      let id = vocab.get(t);
      if (id === undefined) vocab.set(t, (id = df.push(0) - 1));
      df[id]!++;
    }
    const n = docs.length;
    const idf = Float64Array.from(df, (d) => Math.log((1 + n) / (1 + d)) + 1);
    const byLabel = new Map<string, Map<number, number>>();
    tfs.forEach((tf, i) => {
      const row = rowOf(tf, vocab, idf);
      const c = byLabel.get(docs[i]!.label) ?? new Map<number, number>();
      byLabel.set(docs[i]!.label, c);
      for (const [id, w] of row) c.set(id, (c.get(id) ?? 0) + w);
    });
    const centroids = [...byLabel].map(([label, w]) => ({ label, weights: normalised(w) }));
    return new TfidfCentroid(vocab, idf, centroids);
  }

  rank(text: string): RankedLabel[] {
    const q = rowOf(tally(terms(text)), this.vocab, this.idf);
    return this.centroids
      .map((c) => ({ label: c.label, score: [...q].reduce((a, [id, w]) => a + w * (c.weights.get(id) ?? 0), 0) }))
      .sort((a, b) => b.score - a.score || a.label.localeCompare(b.label));
  }
}

function rowOf(tf: Map<string, number>, vocab: Map<string, number>, idf: Float64Array): Map<number, number> {
  const row = new Map<number, number>();
  for (const [t, c] of tf) {
    const id = vocab.get(t);
    if (id !== undefined) row.set(id, (1 + Math.log(c)) * idf[id]!);
  }
  return normalised(row);
}

function normalised(row: Map<number, number>): Map<number, number> {
  const norm = Math.sqrt([...row.values()].reduce((a, w) => a + w * w, 0)) || 1;
  return new Map([...row].map(([id, w]) => [id, w / norm]));
}
