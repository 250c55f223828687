import { randomInt } from 'node:crypto';
import { termCounts } from '../src/query/lexical-index.js';
import type { LexicalData } from '../src/query/lexical-index.js';

/**
 * Builds the records' lexical index (src/query/lexical-index.ts) one record at a time, in
 * records.jsonl order, while the vector index is written. Each record keeps its terms and
 * counts until `finish` (document frequencies need every record first): ~8 bytes per distinct
 * term of a record, about 50 MB for 100k notes. Terms are numbered densely as first seen, so a
 * record keeps term numbers and `finish` works on arrays: the hash-keyed maps it looked terms up
 * in twice per posting took ~70 s of a 1M-record build. The output is the same (same term order
 * per record, same arithmetic; test/unit/kg-build-lexical-index.test.ts).
 */
export class LexicalIndexBuilder {
  readonly salt: number;
  private readonly docs: { terms: Uint32Array; counts: Uint16Array }[] = [];
  /** Term hash → its number (first-seen order). */
  private readonly numberOf = new Map<number, number>();
  private hashes = new Uint32Array(1024);
  private df = new Uint32Array(1024);

  constructor(opts: { salt?: number } = {}) {
    this.salt = opts.salt ?? randomInt(0, 2 ** 32 - 1);
  }

  add(text: string): void {
    const tf = termCounts(this.salt, text);
    const terms = new Uint32Array(tf.size);
    const counts = new Uint16Array(tf.size);
    let i = 0;
    for (const [h, c] of tf) {
      let t = this.numberOf.get(h);
      if (t === undefined) {
        t = this.numberOf.size;
        this.numberOf.set(h, t);
        if (t === this.hashes.length) this.grow();
        this.hashes[t] = h;
      }
      this.df[t]!++;
      terms[i] = t;
      counts[i++] = Math.min(c, 65535);
    }
    this.docs.push({ terms, counts });
  }

  private grow(): void {
    const hashes = new Uint32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const df = new Uint32Array(this.df.length * 2);
    df.set(this.df);
    this.df = df;
  }

  finish(): LexicalData {
    const n = this.docs.length;
    const count = this.numberOf.size;
    // Terms in ascending hash order; rank[t] = term t's position there.
    const order = Array.from({ length: count }, (_, t) => t).sort((a, b) => this.hashes[a]! - this.hashes[b]!);
    const rank = new Uint32Array(count);
    order.forEach((t, r) => (rank[t] = r));
    const terms = Uint32Array.from(order, (t) => this.hashes[t]!);
    const idf = Float32Array.from(order, (t) => Math.log((1 + n) / (1 + this.df[t]!)) + 1);
    const offsets = new Uint32Array(count + 1);
    order.forEach((t, r) => (offsets[r + 1] = this.df[t]!));
    for (let r = 0; r < count; r++) offsets[r + 1]! += offsets[r]!;
    const fill = offsets.slice(0, count);
    const postingRows = new Uint32Array(offsets[count]!);
    const postingWeights = new Float32Array(postingRows.length);
    let w = new Float64Array(64);
    this.docs.forEach((doc, row) => {
      if (w.length < doc.terms.length) w = new Float64Array(doc.terms.length * 2);
      let sum = 0;
      for (let i = 0; i < doc.terms.length; i++) {
        w[i] = (1 + Math.log(doc.counts[i]!)) * idf[rank[doc.terms[i]!]!]!;
        sum += w[i]! * w[i]!;
      }
      const norm = Math.sqrt(sum) || 1;
      for (let i = 0; i < doc.terms.length; i++) {
        const p = fill[rank[doc.terms[i]!]!]!++;
        postingRows[p] = row;
        postingWeights[p] = w[i]! / norm;
      }
    });
    return { salt: this.salt, rows: n, terms, idf, offsets, postingRows, postingWeights };
  }
}
