import { InputError } from '../../errors.js';
import { defaultIdsPath, readIndexFiles, writeIndexFiles } from './index-files.js';
import { patchHnswParams, patchIvfNprobe, patchIvfQuantizerHnsw } from './index-params.js';
import { faiss, nativeVectors, type NativeIndex } from './native.js';
import { twoLevelKmeans } from './two-level-kmeans.js';
import { writeWithHnswQuantizer } from './quantizer-swap.js';
import type { IndexKind, VectorHit, VectorIndexLike } from './types.js';

/**
 * VectorIndexLike over faiss-node: inner-product indexes on L2-normalised vectors, so
 * scores are cosine similarities. Rows carry caller string ids (record id, feature id)
 * through an id map kept beside the native index and saved as a JSON sidecar.
 *
 * faiss-node 0.5.x takes plain number[]; vectors are copied chunk by chunk, never all at
 * once. It has no setters for HNSW's efSearch / efConstruction or IVF's nprobe, so they
 * are patched into the empty index's serialized form at creation (index-params.ts); FAISS
 * saves them with the index, so a loaded index searches as it was built to.
 */
export interface CreateIndexOptions {
  kind: IndexKind;
  dim: number;
  /** IVF only: number of inverted lists (build() derives it from the data size). */
  nlist?: number;
  /** HNSW only: graph degree M. */
  hnswM?: number;
  /** HNSW only: candidate list size while inserting (graph quality vs build time). */
  hnswEfConstruction?: number;
  /** HNSW only: candidate list size per search (FAISS uses max(efSearch, k)). */
  hnswEfSearch?: number;
  /** IVF only: inverted lists scanned per search (default: defaultNprobe(nlist)). */
  nprobe?: number;
  /** IVF only: how a query finds its lists (default: 'hnsw' from HNSW_QUANTIZER_FROM_LISTS lists). */
  quantizer?: 'flat' | 'hnsw';
}

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

/** Rows as one flat Float32Array (n * dim, row-major) or one Float32Array per row. */
export type Vectors = Float32Array | readonly Float32Array[];

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

const ADD_CHUNK = 4096; // rows per native call: bounds the temporary number[] copy

export class FaissVectorIndex implements VectorIndexLike {
  private readonly idSet: Set<string>;
  /**
   * Many lists trained by two-level k-means: the centroids, while the rows are still being
   * added through a flat quantizer (see trainLists); null once the index has its HNSW quantizer.
   */
  private flatStaging: Float32Array | null = null;

  private constructor(
    private native: NativeIndex,
    readonly kind: IndexKind,
    readonly dim: number,
    private readonly ids: string[],
    /** IVF list count; null = not chosen yet: sized from the first (training) batch. */
    private ivfLists: number | null = null,
    /** Creation options, kept for an IVF index made at first add. */
    private readonly createOpts: CreateIndexOptions = { kind, dim },
  ) {
    this.idSet = new Set(ids);
  }

  /** IVF without `nlist` gets ~sqrt(n) lists, n being the size of its first add (it trains on that). */
  static create(opts: CreateIndexOptions): FaissVectorIndex {
    const lists = opts.kind === 'ivf' ? (opts.nlist ?? null) : null;
    // An IVF index's list count is fixed at creation: without nlist, the native index is made at first add.
    const native = opts.kind === 'ivf' && lists === null ? newNative({ ...opts, nlist: 1 }) : newNative(opts);
    return new FaissVectorIndex(native, opts.kind, opts.dim, [], lists, opts);
  }

  /** Create and fill in one go; IVF is trained on (a sample of) these vectors. */
  static build(opts: CreateIndexOptions & { ids: readonly string[]; vectors: Vectors }): FaissVectorIndex {
    const index = FaissVectorIndex.create(opts);
    index.add(opts.ids, opts.vectors);
    return index;
  }

  static async load(indexPath: string, idsPath: string = defaultIdsPath(indexPath)): Promise<FaissVectorIndex> {
    const { native, idMap } = await readIndexFiles({ indexPath, idsPath });
    return new FaissVectorIndex(native, idMap.kind, idMap.dim, idMap.ids);
  }

  get size(): number {
    return this.ids.length;
  }

  /**
   * IVF only (a no-op for other kinds, and once trained): k-means on `vectors`, a sample the
   * caller chose (the build spreads it over the whole input, so a file sorted by diagnosis
   * still gives lists for every part of it). Without it, the first add trains on itself.
   */
  train(vectors: Vectors): void {
    if (this.kind !== 'ivf' || this.native.isTrained()) return;
    const n = rowCount(vectors, this.dim);
    if (this.ivfLists === null) {
      this.ivfLists = defaultNlist(n);
      this.native = newNative({ ...this.createOpts, kind: 'ivf', nlist: this.ivfLists });
    }
    if (n < this.ivfLists) throw new InputError(`IVF with ${this.ivfLists} lists needs at least that many training vectors, got ${n}`, { field: 'vectors' });
    this.trainLists(normalizedRowsAt(vectors, this.dim, stridedRows(n, Math.min(n, trainSampleSize(this.ivfLists)))));
  }

  /**
   * Many lists: centroids by two-level k-means (two-level-kmeans.ts), handed to FAISS as a
   * training set of exactly nlist rows, which FAISS copies as the centroids (it warns that it
   * wants more points; nothing is lost). Fewer lists: FAISS's own k-means, as before.
   *
   * Behind an HNSW quantizer, the rows are then added to an IVF over the same centroids with a
   * FLAT quantizer; the HNSW one takes its place in the saved file (save), or in memory before
   * an in-memory search (withSearchQuantizer). Why: every add assigns its rows to their nearest list. The HNSW
   * quantizer does it one row at a time at efSearch 64 (~210 us per row here: most of the 1M
   * index stage); the flat one by one BLAS product per batch (~100 us per row on one core), and
   * exactly, so no row lands in a worse list than the nearest. Searches are unchanged: the
   * saved index is the same IVF with the same HNSW quantizer (save() swaps it in the file).
   */
  private trainLists(sample: Float32Array): void {
    const lists = this.ivfLists!;
    if (lists < HNSW_QUANTIZER_FROM_LISTS) {
      this.native.train(nativeVectors(sample));
      return;
    }
    const centroids = twoLevelKmeans(sample, this.dim, lists);
    if (this.hnswQuantizer()) {
      this.native = newNative({ ...this.createOpts, kind: 'ivf', nlist: lists, quantizer: 'flat', nprobe: this.createOpts.nprobe ?? defaultNprobe(lists) });
      this.flatStaging = centroids;
    }
    this.native.train(nativeVectors(centroids));
  }

  private hnswQuantizer(): boolean {
    return (this.createOpts.quantizer ?? (this.ivfLists! >= HNSW_QUANTIZER_FROM_LISTS ? 'hnsw' : 'flat')) === 'hnsw';
  }

  /** An empty IVF index over the staging centroids behind the HNSW quantizer (same nlist, nprobe). */
  private hnswOverStagingCentroids(): NativeIndex {
    const index = newNative({ ...this.createOpts, kind: 'ivf', nlist: this.ivfLists!, quantizer: 'hnsw' });
    index.train(nativeVectors(this.flatStaging!));
    return index;
  }

  /**
   * Before an in-memory search: the lists added through the flat quantizer, moved under the HNSW
   * one (FAISS merge_from: same list numbering, ids kept; later adds go through the HNSW
   * quantizer). The emptied staging lists keep their capacity until the old index is collected,
   * so save() does not do this: it swaps the quantizer in the file (quantizer-swap.ts).
   */
  private withSearchQuantizer(): NativeIndex {
    if (this.flatStaging !== null) {
      const final = this.hnswOverStagingCentroids();
      final.mergeFrom(this.native);
      this.native = final;
      this.flatStaging = null;
    }
    return this.native;
  }

  add(ids: readonly string[], vectors: Vectors): void {
    const n = rowCount(vectors, this.dim);
    if (n !== ids.length) throw new InputError(`${ids.length} ids for ${n} vectors`, { field: 'ids' });
    const fresh = new Set<string>();
    for (const id of ids) {
      if (this.idSet.has(id) || fresh.has(id)) throw new InputError(`duplicate vector id ${JSON.stringify(id)}`, { field: 'ids' });
      fresh.add(id);
    }
    if (n === 0) return;
    if (!this.native.isTrained()) {
      if (this.ivfLists === null) {
        this.ivfLists = defaultNlist(n);
        this.native = newNative({ ...this.createOpts, kind: 'ivf', nlist: this.ivfLists });
      }
      if (n < this.ivfLists) throw new InputError(`IVF with ${this.ivfLists} lists needs at least that many vectors in its first add, got ${n}`, { field: 'vectors' });
      const sample = Math.min(n, trainSampleSize(this.ivfLists));
      this.trainLists(normalizedRowsAt(vectors, this.dim, stridedRows(n, sample)));
    }
    for (let start = 0; start < n; start += ADD_CHUNK) {
      this.native.add(nativeVectors(normalizedRows(vectors, this.dim, start, Math.min(n, start + ADD_CHUNK))));
    }
    for (const id of ids) this.ids.push(id);
    for (const id of fresh) this.idSet.add(id);
  }

  search(query: Float32Array, k: number): VectorHit[] {
    return this.searchMany([query], k)[0] ?? [];
  }

  /** All queries go to FAISS in one native call. */
  searchMany(queries: readonly Float32Array[], k: number): VectorHit[][] {
    const kk = Math.min(Math.floor(k), this.size);
    if (queries.length === 0) return [];
    rowCount(queries, this.dim);
    if (kk <= 0) return queries.map(() => []);
    const { distances, labels } = this.withSearchQuantizer().search(nativeVectors(normalizedRows(queries, this.dim, 0, queries.length)), kk);
    return queries.map((_, q) => {
      const hits: VectorHit[] = [];
      for (let j = q * kk; j < (q + 1) * kk; j++) {
        const label = labels[j]!;
        if (label >= 0) hits.push({ id: this.ids[label]!, score: distances[j]! }); // -1 = fewer than k found
      }
      return hits;
    });
  }

  /** Id of a row, in insertion order. */
  idAt(row: number): string | undefined {
    return this.ids[row];
  }

  async save(indexPath: string, idsPath: string = defaultIdsPath(indexPath)): Promise<void> {
    const meta = { kind: this.kind, dim: this.dim, ids: this.ids };
    if (this.flatStaging === null) return writeIndexFiles(this.native, meta, { indexPath, idsPath });
    // Rows added through the flat staging quantizer: the file gets the HNSW one (trainLists).
    const hnsw = this.hnswOverStagingCentroids().toBuffer();
    const staging = this.native;
    await writeIndexFiles({ write: (path) => writeWithHnswQuantizer(staging, hnsw, path) }, meta, { indexPath, idsPath });
  }
}

function newNative(opts: CreateIndexOptions): NativeIndex {
  const f = faiss();
  const ip = f.MetricType.METRIC_INNER_PRODUCT;
  if (opts.kind === 'flat') return new f.IndexFlatIP(opts.dim);
  if (opts.kind === 'hnsw') {
    const buf = f.Index.fromFactory(opts.dim, `HNSW${opts.hnswM ?? HNSW_DEFAULTS.m},Flat`, ip).toBuffer();
    patchHnswParams(buf, { efConstruction: opts.hnswEfConstruction ?? HNSW_DEFAULTS.efConstruction, efSearch: opts.hnswEfSearch ?? HNSW_DEFAULTS.efSearch });
    return f.Index.fromBuffer(buf);
  }
  const nlist = opts.nlist ?? 1;
  const nprobe = opts.nprobe ?? defaultNprobe(nlist);
  const hnswQuantizer = (opts.quantizer ?? (nlist >= HNSW_QUANTIZER_FROM_LISTS ? 'hnsw' : 'flat')) === 'hnsw';
  const buf = f.Index.fromFactory(opts.dim, hnswQuantizer ? `IVF${nlist}_HNSW32,Flat` : `IVF${nlist},Flat`, ip).toBuffer();
  patchIvfNprobe(buf, nprobe);
  if (hnswQuantizer) patchIvfQuantizerHnsw(buf, { efSearch: quantizerEfSearch(nprobe) });
  return f.Index.fromBuffer(buf);
}

function rowCount(vectors: Vectors, dim: number): number {
  if (vectors instanceof Float32Array) {
    if (vectors.length % dim !== 0) throw new InputError(`vector data length ${vectors.length} is not a multiple of dim ${dim}`, { field: 'vectors' });
    return vectors.length / dim;
  }
  for (const v of vectors) if (v.length !== dim) throw new InputError(`vector of length ${v.length}, index dim is ${dim}`, { field: 'vectors' });
  return vectors.length;
}

const range = (start: number, end: number) => Array.from({ length: end - start }, (_, i) => start + i);

/** Rows [start, end) copied into one buffer and L2-normalised (zero rows stay zero). */
function normalizedRows(vectors: Vectors, dim: number, start: number, end: number): Float32Array {
  return normalizedRowsAt(vectors, dim, range(start, end));
}

/** Evenly strided rows: input order often follows the diagnosis, so a prefix would be biased. */
function stridedRows(n: number, sample: number): number[] {
  return Array.from({ length: sample }, (_, i) => Math.floor((i * n) / sample));
}

function normalizedRowsAt(vectors: Vectors, dim: number, rows: readonly number[]): Float32Array {
  const out = new Float32Array(rows.length * dim);
  rows.forEach((r, k) => {
    const row = vectors instanceof Float32Array ? vectors.subarray(r * dim, (r + 1) * dim) : vectors[r]!;
    let norm = 0;
    for (let i = 0; i < dim; i++) norm += row[i]! * row[i]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < dim; i++) out[k * dim + i] = row[i]! * scale;
  });
  return out;
}
