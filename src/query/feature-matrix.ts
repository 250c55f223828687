import type { IndexKind, VectorHit, VectorIndexLike } from '../adapters/faiss/types.js';
import type { TextEmbedder } from './embed.js';
import type { KgSnapshot } from './kg-snapshot.js';

/**
 * Exact inner-product search over the feature nodes, for feature matching (MedRAG eq. 9-11),
 * kept in memory as a dimension-major (transposed) Float32Array. Why: a patient has ~25
 * findings per query and each is a short phrase, so the local hashed embedder gives it only
 * ~30-60 non-zero dimensions out of 512. Scoring walks just those dimensions' rows
 * (nnz × features multiply-adds instead of dim × features), which measured ~6x less CPU
 * than FAISS flat for a whole query's findings. Results are the exact top-k, like
 * IndexFlatIP (scores may differ in the last float bits: summation order).
 * Dense queries (over `denseShare` of the dimensions non-zero) go to `fallback`.
 */
export class FeatureMatrix implements VectorIndexLike {
  readonly kind: IndexKind = 'flat';

  private constructor(
    readonly dim: number,
    private readonly ids: readonly string[],
    /** t[j * n + f] = unit vector of feature f, dimension j. */
    private readonly t: Float32Array,
    private readonly fallback: VectorIndexLike | null,
    private readonly denseShare: number,
  ) {}

  static fromVectors(o: { ids: readonly string[]; vectors: readonly Float32Array[]; dim: number; fallback?: VectorIndexLike | null; denseShare?: number }): FeatureMatrix {
    const n = o.ids.length;
    const t = new Float32Array(n * o.dim);
    o.vectors.forEach((v, f) => {
      for (let j = 0; j < o.dim; j++) if (v[j] !== 0) t[j * n + f] = v[j]!;
    });
    return new FeatureMatrix(o.dim, o.ids, t, o.fallback ?? null, o.denseShare ?? 0.25);
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
        const row = j * n;
        for (let f = 0; f < n; f++) scores[f]! += w * this.t[row + f]!;
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
