import type { VectorHit } from '../adapters/faiss/types.js';

/**
 * Memo of feature matching per finding phrase: a phrase's top-m feature hits (before the
 * threshold) are a pure function of the phrase, m, the embedder and the feature index, so a
 * phrase seen before
 * skips the embedder and the feature search. Why: structured EHR findings (and DDXPlus
 * renderings) come from a finite vocabulary, so most of a query's ~25-40 phrases repeat
 * across patients; matching was the largest share of a query's CPU (docs/benchmarks.md).
 * Free text repeats less and simply misses. Least recently used phrases are dropped past
 * `maxEntries`. Only phrases are kept, never which patient sent them.
 */
export class PhraseMatchCache {
  private readonly entries = new Map<string, VectorHit[]>();
  constructor(private readonly maxEntries: number) {}

  get(key: string): VectorHit[] | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert: Map order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, hits: VectorHit[]): void {
    if (this.maxEntries <= 0) return;
    this.entries.set(key, hits);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Key of a phrase searched for its top `topM` with embedder `embedderId`. */
  static key(embedderId: string, topM: number, phrase: string): string {
    return `${embedderId}\u0000${topM}\u0000${phrase}`;
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<object, PhraseMatchCache>();

/** The phrase cache of one feature index (one per loaded build; dropped with it). */
export function phraseCacheFor(featureIndex: object, maxEntries = 50_000): PhraseMatchCache {
  let c = caches.get(featureIndex);
  if (!c) caches.set(featureIndex, (c = new PhraseMatchCache(maxEntries)));
  return c;
}
