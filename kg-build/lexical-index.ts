import { randomInt } from 'node:crypto';
import { termCounts } from '../src/query/lexical-index.js';
import type { LexicalData } from '../src/query/lexical-index.js';

/**
 * Builds the records' lexical index (src/query/lexical-index.ts) one record at a time, in
 * records.jsonl order, while the vector index is written. Each record keeps its term hashes and
 * counts until `finish` (document frequencies need every record first): ~8 bytes per distinct
 * term of a record, about 50 MB for 100k notes.
 */
export class LexicalIndexBuilder {
  readonly salt: number;
  private readonly docs: { terms: Uint32Array; counts: Uint16Array }[] = [];
  private readonly df = new Map<number, number>();

  constructor(opts: { salt?: number } = {}) {
    this.salt = opts.salt ?? randomInt(0, 2 ** 32 - 1);
  }

  add(text: string): void {
    const tf = termCounts(this.salt, text);
    const terms = Uint32Array.from(tf.keys());
    this.docs.push({ terms, counts: Uint16Array.from(tf.values(), (c) => Math.min(c, 65535)) });
    for (const h of terms) this.df.set(h, (this.df.get(h) ?? 0) + 1);
  }

  finish(): LexicalData {
    const n = this.docs.length;
    const terms = Uint32Array.from(this.df.keys()).sort();
    const index = new Map<number, number>();
    terms.forEach((h, t) => index.set(h, t));
    const idf = Float32Array.from(terms, (h) => Math.log((1 + n) / (1 + this.df.get(h)!)) + 1);
    const offsets = new Uint32Array(terms.length + 1);
    for (const h of terms) offsets[index.get(h)! + 1] = this.df.get(h)!;
    for (let t = 0; t < terms.length; t++) offsets[t + 1]! += offsets[t]!;
    const fill = offsets.slice(0, terms.length);
    const postingRows = new Uint32Array(offsets[terms.length]!);
    const postingWeights = new Float32Array(postingRows.length);
    this.docs.forEach((doc, row) => {
      const w = Array.from(doc.terms, (h, i) => (1 + Math.log(doc.counts[i]!)) * idf[index.get(h)!]!);
      const norm = Math.sqrt(w.reduce((a, x) => a + x * x, 0)) || 1;
      doc.terms.forEach((h, i) => {
        const p = fill[index.get(h)!]!++;
        postingRows[p] = row;
        postingWeights[p] = w[i]! / norm;
      });
    });
    return { salt: this.salt, rows: n, terms, idf, offsets, postingRows, postingWeights };
  }
}
