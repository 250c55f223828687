import type { IndexKind, VectorHit, VectorIndexLike } from '../adapters/faiss/types.js';
import type { TextEmbedder } from './embed.js';
import type { KgSnapshot } from './kg-snapshot.js';

/**
 * Exact inner-product search over the feature nodes, for feature matching (MedRAG eq. 9-11),
 * kept in memory as per-dimension posting lists (an inverted index of the non-zero entries).
 * Why: a patient has ~25 findings per query and each is a short phrase, and feature texts are
 * short phrases too, so the local hashed embedder gives both only ~30-60 non-zero dimensions
 * out of 512. Scoring walks the finding's non-zero dimensions and, in each, only the features
 * non-zero there: nnz(query) × (features per dimension) multiply-adds instead of dim ×
 * features (FAISS flat) or nnz(query) × features (a dense transposed matrix, the previous
 * version: 4.3 ms CPU per query at 100k records, ~40% of a query). Results are the exact
 * top-k, like IndexFlatIP (scores may differ in the last float bits: summation order).
 * Dense queries (over `denseShare` of the dimensions non-zero) go to `fallback`.
 */
export class FeatureMatrix implements VectorIndexLike {
  readonly kind: IndexKind = 'flat';

  private constructor(
    readonly dim: number,
    private readonly ids: readonly string[],
    /** Dimension j's postings are entries start[j] .. start[j+1]-1 of `feature` / `value`. */
    private readonly start: Int32Array,
    private readonly feature: Int32Array,
    private readonly value: Float32Array,
    private readonly fallback: VectorIndexLike | null,
    private readonly denseShare: number,
  ) {}

  static fromVectors(o: { ids: readonly string[]; vectors: readonly Float32Array[]; dim: number; fallback?: VectorIndexLike | null; denseShare?: number }): FeatureMatrix {
    const start = new Int32Array(o.dim + 1);
    for (const v of o.vectors) for (let j = 0; j < o.dim; j++) if (v[j] !== 0) start[j + 1]!++;
    for (let j = 0; j < o.dim; j++) start[j + 1]! += start[j]!;
    const fill = start.slice(0, o.dim);
    const feature = new Int32Array(start[o.dim]!);
    const value = new Float32Array(start[o.dim]!);
    o.vectors.forEach((v, f) => {
      for (let j = 0; j < o.dim; j++) {
        if (v[j] === 0) continue;
        const at = fill[j]!++;
        feature[at] = f;
        value[at] = v[j]!;
      }
    });
    return new FeatureMatrix(o.dim, o.ids, start, feature, value, o.fallback ?? null, o.denseShare ?? 0.25);
  }

  get size(): number {
    return this.ids.length;
  }

  search(query: Float32Array, k: number): VectorHit[] {
    return this.searchMany([query], k)[0] ?? [];
  }

  searchMany(queries: Float32Array[], k: number): VectorHit[][] {
    const n = this.ids.length;
    const kk = Math.min(Math.floor(k), n);
    if (kk <= 0) return queries.map(() => []);
    const scores = new Float32Array(n);
    const nz = new Int32Array(this.dim);
    const { start, feature, value } = this;
    return queries.map((q) => {
      let m = 0;
      let norm = 0;
      for (let j = 0; j < this.dim; j++) {
        if (q[j] !== 0) nz[m++] = j;
        norm += q[j]! * q[j]!;
      }
      if (this.fallback && m > this.denseShare * this.dim) return this.fallback.search(q, kk);
      const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0; // queries are compared as unit vectors, as FAISS does
      scores.fill(0);
      for (let a = 0; a < m; a++) {
        const j = nz[a]!;
        const w = q[j]! * inv;
        for (let p = start[j]!, end = start[j + 1]!; p < end; p++) scores[feature[p]!]! += w * value[p]!;
      }
      return topK(scores, kk).map((f) => ({ id: this.ids[f]!, score: scores[f]! }));
    });
  }
}

/** Indices of the k largest scores, best first (ties: lower index first). k is small (top-m). */
function topK(scores: Float32Array, k: number): number[] {
  const best: number[] = [];
  for (let f = 0; f < scores.length; f++) {
    const s = scores[f]!;
    if (best.length === k && s <= scores[best[k - 1]!]!) continue;
    let pos = best.length < k ? best.length : k - 1;
    if (best.length < k) best.push(f);
    while (pos > 0 && scores[best[pos - 1]!]! < s) {
      best[pos] = best[pos - 1]!;
      pos--;
    }
    best[pos] = f;
  }
  return best;
}

const built = new WeakMap<KgSnapshot, FeatureMatrix>();

/**
 * The snapshot's feature matrix, made once per snapshot (the KG is read once too), only for
 * the local hashed embedder (sparse vectors, ~0.1 ms per feature, no network); any other
 * embedder keeps the FAISS index (null). `texts` are what still has to be embedded: the
 * caller embeds them in its own embedder call and hands the vectors to `remember`.
 */
export function featureMatrixFor(snapshot: KgSnapshot, embedder: TextEmbedder): { matrix: FeatureMatrix } | { texts: string[] } | null {
  if (!embedder.id.startsWith('hashed-') || snapshot.features.length === 0) return null;
  const m = built.get(snapshot);
  return m ? { matrix: m } : { texts: snapshot.features.map((f) => f.text) };
}

export function rememberFeatureMatrix(snapshot: KgSnapshot, vectors: readonly Float32Array[], fallback: VectorIndexLike): FeatureMatrix {
  const m = FeatureMatrix.fromVectors({ ids: snapshot.features.map((f) => f.id), vectors, dim: fallback.dim, fallback });
  built.set(snapshot, m);
  return m;
}
