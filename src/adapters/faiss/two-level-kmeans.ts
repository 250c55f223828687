import { faiss, nativeVectors } from './native.js';

/**
 * IVF centroids for many lists, by two-level k-means: ~sqrt(k) coarse cells, then each cell's
 * share of the k lists by k-means over its own rows. FAISS's k-means compares every training
 * row with every centroid on each of its 25 iterations: at 1M records (7,813 lists, 187,512
 * rows) that took 1,466 s of this 2-core box, most of a 1M build. Two levels compare a row with
 * ~2 sqrt(k) centroids per iteration (~45x less work at 7,813 lists). Spherical (centroids
 * L2-normalised) because the lists are searched by inner product. Deterministic: evenly strided
 * initial rows, no random state. Rows are unit vectors, row-major in one Float32Array.
 */
export interface KmeansOptions {
  iterations: number;
}

export const DEFAULT_KMEANS_OPTIONS: KmeansOptions = { iterations: 20 };

export function twoLevelKmeans(rows: Float32Array, dim: number, k: number, options: Partial<KmeansOptions> = {}): Float32Array {
  const opts = { ...DEFAULT_KMEANS_OPTIONS, ...options };
  const n = rows.length / dim;
  if (n < k) throw new RangeError(`${k} centroids need at least ${k} rows, got ${n}`);
  const coarse = kmeans(rows, dim, Math.max(1, Math.round(Math.sqrt(k))), opts);
  const cellOf = assign(rows, dim, coarse);
  const members: number[][] = Array.from({ length: coarse.length / dim }, () => []);
  cellOf.forEach((c, i) => members[c]!.push(i));
  const shares = allot(members.map((m) => m.length), k);
  const out = new Float32Array(k * dim);
  let filled = 0;
  members.forEach((m, c) => {
    if (shares[c] === 0) return;
    const cell = new Float32Array(m.length * dim);
    m.forEach((r, i) => cell.set(rows.subarray(r * dim, (r + 1) * dim), i * dim));
    out.set(kmeans(cell, dim, shares[c]!, opts), filled * dim);
    filled += shares[c]!;
  });
  return out;
}

/** Spherical k-means (Lloyd), assignments by FAISS's exact inner-product search. */
export function kmeans(rows: Float32Array, dim: number, k: number, opts: KmeansOptions): Float32Array {
  const n = rows.length / dim;
  const centroids = new Float32Array(k * dim);
  for (let c = 0; c < k; c++) centroids.set(rows.subarray(Math.floor((c * n) / k) * dim, (Math.floor((c * n) / k) + 1) * dim), c * dim);
  if (n === k) return centroids;
  for (let it = 0; it < opts.iterations; it++) {
    const of = assign(rows, dim, centroids);
    const sums = new Float64Array(k * dim);
    const sizes = new Int32Array(k);
    for (let i = 0; i < n; i++) {
      const c = of[i]!;
      sizes[c]!++;
      for (let j = 0; j < dim; j++) sums[c * dim + j]! += rows[i * dim + j]!;
    }
    for (let c = 0; c < k; c++) if (sizes[c] === 0) split(sums, sizes, c, dim);
    for (let c = 0; c < k; c++) {
      let norm = 0;
      for (let j = 0; j < dim; j++) norm += sums[c * dim + j]! ** 2;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let j = 0; j < dim; j++) centroids[c * dim + j] = sums[c * dim + j]! * scale;
    }
  }
  return centroids;
}

/** An empty cluster takes half of the largest one: its sum, nudged apart (as FAISS does). */
function split(sums: Float64Array, sizes: Int32Array, empty: number, dim: number): void {
  let big = 0;
  for (let c = 1; c < sizes.length; c++) if (sizes[c]! > sizes[big]!) big = c;
  for (let j = 0; j < dim; j++) {
    const v = sums[big * dim + j]!;
    const eps = (j % 2 === 0 ? 1 : -1) / 1024;
    sums[empty * dim + j] = v * (1 + eps);
    sums[big * dim + j] = v * (1 - eps);
  }
  sizes[empty] = Math.floor(sizes[big]! / 2);
  sizes[big]! -= sizes[empty]!;
}

function assign(rows: Float32Array, dim: number, centroids: Float32Array): Int32Array {
  const index = new (faiss().IndexFlatIP)(dim);
  index.add(nativeVectors(centroids));
  const { labels } = index.search(nativeVectors(rows), 1);
  return Int32Array.from(labels);
}

/** k split over cells in proportion to their rows (largest remainders), never more than a cell's rows. */
export function allot(sizes: readonly number[], k: number): number[] {
  const n = sizes.reduce((s, x) => s + x, 0);
  const exact = sizes.map((s) => (k * s) / n);
  const out = exact.map((x, i) => Math.min(sizes[i]!, Math.floor(x)));
  let left = k - out.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => i).sort((a, b) => exact[b]! - Math.floor(exact[b]!) - (exact[a]! - Math.floor(exact[a]!)) || a - b);
  for (let pass = 0; left > 0; pass++) {
    for (const i of order) {
      if (left === 0) break;
      if (out[i]! < sizes[i]!) {
        out[i]!++;
        left--;
      }
    }
    if (pass > k) throw new RangeError(`cannot place ${k} centroids in ${n} rows`);
  }
  return out;
}
