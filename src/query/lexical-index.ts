import { tokenize, tokenSpans } from '../adapters/embeddings/hashed-grams.js';

/**
 * Lexical (TF-IDF) index of the training records, beside the FAISS one (issue 24, "similar
 * records carry text"). Why: a note's discriminating words are its rare ones ("drooling",
 * "light switch"), and a 512-d hashed embedding without document frequencies drowns them in
 * "pain" and "days": on the vignettes its nearest records vote for the right disease 86% of
 * the time, exact TF-IDF 93% (docs/notes.md). Weights are scikit-learn's TfidfVectorizer
 * defaults (sublinear tf, smoothed idf, L2 rows) over word unigrams and bigrams; similarity
 * is the cosine, through an inverted index so a query touches only its own terms' records.
 *
 * Privacy: terms are kept as salted 32-bit hashes (FNV-1a of salt + term; the salt is random per
 * build), never as words; like the record vectors, the file stays with the server's build.
 */
export interface LexicalHit {
  /** Row of the record in records.jsonl (index order). */
  row: number;
  score: number;
}

export interface LexicalData {
  salt: number;
  rows: number;
  /** Term hashes, ascending; offsets[t]..offsets[t+1] are term t's postings. */
  terms: Uint32Array;
  idf: Float32Array;
  offsets: Uint32Array;
  postingRows: Uint32Array;
  postingWeights: Float32Array;
}

/** Word unigrams and bigrams of a text (the hashed embedder's tokenizer: NFKD, stopwords out). */
export function lexicalTerms(text: string): string[] {
  const words = tokenize(text).filter((w) => w.length >= 2);
  const out = [...words];
  for (let i = 0; i + 1 < words.length; i++) out.push(`${words[i]} ${words[i + 1]}`);
  return out;
}

export function termHash(salt: number, term: string): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Term hash → count for one text: termHash of every lexicalTerms term, in that order (unigrams,
 * then bigrams), computed over tokenSpans' char codes without building the term strings. A
 * bigram's hash continues its first word's FNV state with the space and the second word. Same
 * map as the string version (test/unit/query-lexical-index.test.ts); ~10x faster, which matters
 * at 1M records (the string version was the index stage's largest cost after the FAISS adds).
 */
export function termCounts(salt: number, text: string): Map<number, number> {
  const m = new Map<number, number>();
  const { n, codes, bounds } = tokenSpans(text);
  growWordScratch(n);
  const seed = (0x811c9dc5 ^ salt) >>> 0;
  let kept = 0;
  for (let t = 0; t < n; t++) {
    const s = bounds[2 * t]!;
    const e = bounds[2 * t + 1]!;
    if (e - s < 2) continue;
    let h = seed;
    for (let i = s; i < e; i++) h = Math.imul(h ^ codes[i]!, 0x01000193);
    wordHash[kept] = h;
    wordAt[kept++] = t;
    h >>>= 0;
    m.set(h, (m.get(h) ?? 0) + 1);
  }
  for (let k = 0; k + 1 < kept; k++) {
    let h = Math.imul(wordHash[k]! ^ 32, 0x01000193);
    const t = wordAt[k + 1]!;
    for (let i = bounds[2 * t]!, e = bounds[2 * t + 1]!; i < e; i++) h = Math.imul(h ^ codes[i]!, 0x01000193);
    h >>>= 0;
    m.set(h, (m.get(h) ?? 0) + 1);
  }
  return m;
}

// Scratch of termCounts: per kept word, its FNV state and token number; grown on demand.
let wordHash = new Int32Array(1024);
let wordAt = new Int32Array(1024);
function growWordScratch(n: number): void {
  if (wordHash.length < n) {
    wordHash = new Int32Array(n * 2);
    wordAt = new Int32Array(n * 2);
  }
}

export class LexicalIndex {
  constructor(private readonly data: LexicalData) {}

  get size(): number {
    return this.data.rows;
  }

  get salt(): number {
    return this.data.salt;
  }

  /** The index's arrays, read-only (disease-profiles.ts sums its rows per disease). */
  get arrays(): Readonly<LexicalData> {
    return this.data;
  }

  /** A text's L2-normalised TF-IDF row over the index's terms (term index, weight); terms no record has are ignored. */
  queryRow(text: string): [number, number][] {
    const d = this.data;
    const row: [number, number][] = [];
    let norm = 0;
    for (const [h, c] of termCounts(d.salt, text)) {
      const t = this.find(h);
      if (t < 0) continue;
      const w = (1 + Math.log(c)) * d.idf[t]!;
      row.push([t, w]);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    return norm === 0 ? [] : row.map(([t, w]) => [t, w / norm]);
  }

  /** The `k` records most cosine-similar to `text`, best first (ties: lower row); terms no record has are ignored. */
  search(text: string, k: number): LexicalHit[] {
    const d = this.data;
    const row = this.queryRow(text);
    if (row.length === 0 || k <= 0) return [];
    const sims = new Float64Array(d.rows);
    const touched: number[] = [];
    for (const [t, w] of row) {
      for (let p = d.offsets[t]!; p < d.offsets[t + 1]!; p++) {
        const r = d.postingRows[p]!;
        if (sims[r] === 0) touched.push(r);
        sims[r]! += w * d.postingWeights[p]!;
      }
    }
    touched.sort((a, b) => sims[b]! - sims[a]! || a - b);
    return touched.slice(0, k).map((r) => ({ row: r, score: sims[r]! }));
  }

  private find(h: number): number {
    const terms = this.data.terms;
    let lo = 0;
    let hi = terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = terms[mid]!;
      if (v === h) return mid;
      if (v < h) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
