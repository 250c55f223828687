import { faiss, nativeVectors } from '../src/adapters/faiss/native.js';
import { dot } from './vectors.js';

/**
 * Greedy near-duplicate grouping of unit vectors, visited in index order: item i joins the
 * earliest representative r < i with dot(v_r, v_i) >= minSim, else it is a representative.
 * Returns each item's representative (itself for a representative).
 *
 * All pairs (`greedyGroupsAllPairs`) compare every item with every representative in JS:
 * 188.7 s for 20,000 free-text findings. Here a FAISS inner-product index names each item's
 * candidates (similarity >= minSim - CANDIDATE_MARGIN) and only those are compared in JS,
 * with the same `dot`, so the groups are the all-pairs ones exactly: the index is exact
 * (flat) and the margin absorbs its float32 rounding (at most ~dim x 6e-8, 3e-5 at 512-d),
 * so every pair all-pairs would accept is a candidate. The pair scan itself is still n²,
 * but in FAISS's batched BLAS, not in JS.
 */
export const CANDIDATE_MARGIN = 1e-3;

export interface GreedyGroupOptions {
  /** Below this many items all pairs are cheaper than loading and filling an index. */
  indexFrom: number;
  /** Queries per native search call. */
  batch: number;
  /** First neighbour count asked per query; grown (x4) for a query whose k-th is still a candidate. */
  k: number;
}

export const DEFAULT_GREEDY_GROUP_OPTIONS: GreedyGroupOptions = { indexFrom: 1000, batch: 1024, k: 16 };

export function greedyGroups(vecs: readonly Float32Array[], minSim: number, options: Partial<GreedyGroupOptions> = {}): Int32Array {
  const opts = { ...DEFAULT_GREEDY_GROUP_OPTIONS, ...options };
  if (vecs.length < opts.indexFrom || minSim > 1) return greedyGroupsAllPairs(vecs, minSim);
  const rep = new Int32Array(vecs.length);
  const isRep = new Uint8Array(vecs.length);
  const candidates = candidateLists(vecs, minSim - CANDIDATE_MARGIN, opts);
  for (let i = 0; i < vecs.length; i++) {
    let found = -1;
    // Ascending: the earliest representative wins, as in the all-pairs scan.
    for (const j of candidates(i)) {
      if (j < i && isRep[j] === 1 && dot(vecs[j]!, vecs[i]!) >= minSim) {
        found = j;
        break;
      }
    }
    rep[i] = found === -1 ? i : found;
    if (found === -1) isRep[i] = 1;
  }
  return rep;
}

/** The reference: every item against every representative so far. */
export function greedyGroupsAllPairs(vecs: readonly Float32Array[], minSim: number): Int32Array {
  const rep = new Int32Array(vecs.length);
  const reps: number[] = [];
  for (let i = 0; i < vecs.length; i++) {
    const r = minSim > 1 ? undefined : reps.find((j) => dot(vecs[j]!, vecs[i]!) >= minSim);
    if (r === undefined) reps.push(i);
    rep[i] = r ?? i;
  }
  return rep;
}

/**
 * Per item, the other items FAISS puts at similarity >= threshold, ascending; searched in
 * batches ahead of the greedy pass, which asks for items in order.
 */
function candidateLists(vecs: readonly Float32Array[], threshold: number, opts: GreedyGroupOptions): (i: number) => readonly number[] {
  const dim = vecs[0]!.length;
  const index = new (faiss().IndexFlatIP)(dim);
  const rows = (from: number, to: number) => {
    const flat = new Float32Array((to - from) * dim);
    for (let i = from; i < to; i++) flat.set(vecs[i]!, (i - from) * dim);
    return nativeVectors(flat);
  };
  for (let s = 0; s < vecs.length; s += opts.batch) index.add(rows(s, Math.min(vecs.length, s + opts.batch)));
  const lists = new Map<number, number[]>();
  let searched = 0;
  const searchBatch = (from: number, to: number, k: number) => {
    const kk = Math.min(k, vecs.length);
    const { distances, labels } = index.search(rows(from, to), kk);
    const again: number[] = [];
    for (let q = 0; q < to - from; q++) {
      const hits: number[] = [];
      for (let h = q * kk; h < (q + 1) * kk; h++) if (labels[h]! >= 0 && distances[h]! >= threshold && labels[h] !== from + q) hits.push(labels[h]!);
      // The k-th hit still a candidate: there may be more beyond it.
      if (kk < vecs.length && distances[(q + 1) * kk - 1]! >= threshold) again.push(from + q);
      else if (hits.length > 0) lists.set(from + q, hits.sort((a, b) => a - b));
    }
    for (const i of again) searchBatch(i, i + 1, kk * 4);
  };
  return (i) => {
    while (searched <= i) {
      const to = Math.min(vecs.length, searched + opts.batch);
      searchBatch(searched, to, opts.k);
      searched = to;
    }
    const list = lists.get(i) ?? [];
    lists.delete(i);
    return list;
  };
}
