/**
 * The follow-up model's per-feature rows over diseases. Stored sparse (only the diseases with an
 * edge), because one dense Float64Array per feature is F × D × 8 bytes: 768 MB at 20,000 findings
 * × 5,000 diagnoses (docs/benchmarks.md, issue 29). Callers that read a whole row get a dense copy
 * from a byte-bounded LRU (`RowCache`), so a hospital-sized vocabulary cannot fill memory with
 * rows while DDXPlus-sized ones (475 × 49) stay cached in full.
 */
export interface SparseRow {
  /** Disease indices, ascending. */
  idx: Int32Array;
  val: Float64Array;
}

export function sparseRow(entries: ReadonlyMap<number, number>): SparseRow {
  const idx = Int32Array.from([...entries.keys()].sort((a, b) => a - b));
  return { idx, val: Float64Array.from(idx, (i) => entries.get(i)!) };
}

/** The row's value at disease d (0 when it has no edge there); binary search. */
export function valueAt(row: SparseRow | undefined, d: number): number {
  if (!row) return 0;
  let lo = 0;
  let hi = row.idx.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = row.idx[mid]!;
    if (v === d) return row.val[mid]!;
    if (v < d) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

export function denseRow(row: SparseRow | undefined, width: number): Float64Array {
  const out = new Float64Array(width);
  if (row) for (let k = 0; k < row.idx.length; k++) out[row.idx[k]!] = row.val[k]!;
  return out;
}

/** Least-recently-used cache of dense rows, bounded in bytes (a Map keeps insertion order). */
export class RowCache {
  private readonly rows = new Map<string, Float64Array>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, make: () => Float64Array): Float64Array {
    const hit = this.rows.get(key);
    if (hit) {
      this.rows.delete(key);
      this.rows.set(key, hit);
      return hit;
    }
    const row = make();
    this.rows.set(key, row);
    this.bytes += row.byteLength;
    while (this.bytes > this.maxBytes && this.rows.size > 1) {
      const [oldest, r] = this.rows.entries().next().value!;
      this.rows.delete(oldest);
      this.bytes -= r.byteLength;
    }
    return row;
  }
}
