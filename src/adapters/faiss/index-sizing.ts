import type { IndexKind } from './types.js';

// How big an index is made for n rows: kind, HNSW degree and ef, IVF lists, nprobe and training
// sample, each with the measurement behind it (docs/benchmarks.md).

/**
 * HNSW defaults, measured on hashed-embedder record vectors at 100k (docs/benchmarks.md):
 * M 32 / efConstruction 40 (FAISS's) stalls at recall@10 0.964 for any efSearch >= 64
 * (generated records repeat texts, and a thin build leaves some rows unreachable);
 * M 16 / efConstruction 80 reaches 0.987 at efSearch 64, in the same build CPU, with
 * half the graph memory and faster queries (0.9 vs 1.5 ms).
 */
export const HNSW_DEFAULTS = { m: 16, efConstruction: 80, efSearch: 64 } as const;

/**
 * Lists scanned per search. Few lists (flat quantizer): ~1/64 of them, at least 5. FAISS's
 * nprobe = 1 gave recall@10 0.92 at 10k; at 100k (316 lists, hashed record vectors, idle
 * box) nprobe 4 / 5 / 8 gave 0.983 / 0.988 / 0.989 at 1.9 / 1.9 / 3.1 ms per query, and the
 * record search is a large share of a diagnose request's CPU, so 5. Many lists (HNSW
 * quantizer, n >= IVF_MANY_LISTS_FROM): ~1/512 of them, at least 16; at 1M (8192 lists)
 * nprobe 12 / 16 / 24 gave recall@10 0.979 / 0.993 / 0.996 at 2.4 / 3.0 / 4.1 ms (docs/benchmarks.md).
 */
export const defaultNprobe = (nlist: number) =>
  Math.min(nlist, nlist >= HNSW_QUANTIZER_FROM_LISTS ? Math.max(16, Math.round(nlist / 512)) : Math.max(5, Math.round(nlist / 64)));

export interface ChooseIndexKindOptions {
  /** Exact (flat) search below this many vectors. */
  flatBelow: number;
  approximate?: 'hnsw' | 'ivf';
}

export function chooseIndexKind(n: number, opts: ChooseIndexKindOptions): IndexKind {
  return n < opts.flatBelow ? 'flat' : (opts.approximate ?? 'ivf');
}

/**
 * IVF sizes. Up to IVF_MANY_LISTS_FROM vectors: ~sqrt(n) lists (at least 39 training points
 * each, FAISS's own minimum) behind a flat quantizer. Beyond, a list scan is bound by memory
 * bandwidth (Debian's generic libfaiss reads ~2.8 GB/s of 512-d floats: 1M flat = 0.8 s),
 * so lists stay small (~128 rows, n/128 lists) and the centroids get an HNSW graph as their
 * quantizer, else scanning 8192 centroids would cost more than the lists. At 1M:
 * IVF1000 (flat quantizer) nprobe 8 gave recall@10 0.988 at 13.6 ms; IVF8192 (HNSW
 * quantizer, efSearch 64) nprobe 16 gave 0.993 at 3.0 ms.
 */
export const IVF_MANY_LISTS_FROM = 500_000;
export const HNSW_QUANTIZER_FROM_LISTS = 2048;
/** The quantizer's efSearch: FAISS's 16 caps how many good lists it can name (recall stalled at 0.968 for nprobe 24). */
export const quantizerEfSearch = (nprobe: number) => Math.max(64, 2 * nprobe);

export const defaultNlist = (n: number) =>
  n >= IVF_MANY_LISTS_FROM ? Math.round(n / 128) : Math.max(1, Math.min(Math.round(Math.sqrt(n)), Math.floor(n / 39)));

/**
 * k-means sample per list: FAISS wants >= 39 and samples at most 256. Training costs
 * lists x sample x dim: 64 per list is seconds at 316 lists. Many lists are trained by
 * two-level k-means (two-level-kmeans.ts: ~2 sqrt(lists) x sample x dim), 32 rows each: the
 * sample is held twice while training (1M: 250k rows, 2 x 512 MB), less than the index itself.
 */
export const trainPerList = (nlist: number) => (nlist >= HNSW_QUANTIZER_FROM_LISTS ? 32 : 64);
export const trainSampleSize = (nlist: number) => trainPerList(nlist) * nlist;
