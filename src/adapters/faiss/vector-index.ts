import { InputError } from '../../errors.js';
import { defaultIdsPath, readIndexFiles, writeIndexFiles } from './index-files.js';
import { defaultNlist, defaultNprobe, HNSW_QUANTIZER_FROM_LISTS, trainSampleSize } from './index-sizing.js';
import { nativeVectors, type NativeIndex } from './native.js';
import { newNative, type CreateIndexOptions } from './new-native.js';
import { twoLevelKmeans } from './two-level-kmeans.js';
import { writeWithHnswQuantizer } from './quantizer-swap.js';
import type { IndexKind, VectorHit, VectorIndexLike } from './types.js';
import { normalizedRows, normalizedRowsAt, rowCount, stridedRows, type Vectors } from './vector-rows.js';

// The sizing rules, the creation options and the row type live beside this file; callers import them from here.
export { chooseIndexKind, defaultNlist, defaultNprobe, HNSW_DEFAULTS, HNSW_QUANTIZER_FROM_LISTS, IVF_MANY_LISTS_FROM, quantizerEfSearch, trainPerList, trainSampleSize, type ChooseIndexKindOptions } from './index-sizing.js';
export type { CreateIndexOptions } from './new-native.js';
export type { Vectors } from './vector-rows.js';

const ADD_CHUNK = 4096; // rows per native call: bounds the temporary number[] copy

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
