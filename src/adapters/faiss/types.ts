/**
 * Contract of the vector index used for EHR retrieval and feature matching.
 * Vectors are L2-normalised Float32Arrays; scores are cosine similarities (inner product).
 */
export type IndexKind = 'flat' | 'ivf' | 'hnsw';

export interface VectorHit {
  /** The caller's string id (record id, feature id). */
  id: string;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

export interface VectorIndexLike {
  readonly dim: number;
  readonly size: number;
  readonly kind: IndexKind;
  search(query: Float32Array, k: number): VectorHit[];
  /** Batched search: one call for many queries (one native round trip). */
  searchMany(queries: Float32Array[], k: number): VectorHit[][];
}
