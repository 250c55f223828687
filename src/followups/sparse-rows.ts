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

/** A cached row, linked in recency order (oldest first). */
interface CachedRow {
  space: Map<string, CachedRow>;
  key: string;
  row: Float64Array;
  prev: CachedRow | null;
  next: CachedRow | null;
}

/**
 * Least-recently-used cache of dense rows, bounded in bytes. Rows are keyed by (space, key), a space
 * per kind of row, so a caller passes its feature id as it is (no key string built per read, and the
 * id's hash is the string's own), and recency is a linked list: a hit relinks one node, where
 * re-inserting into one Map deleted and added a key every read.
 */
export class RowCache {
  private readonly spaces = new Map<string, Map<string, CachedRow>>();
  private oldest: CachedRow | null = null;
  private newest: CachedRow | null = null;
  private bytes = 0;
  private count = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, make: () => Float64Array, space = ''): Float64Array {
    let rows = this.spaces.get(space);
    if (!rows) this.spaces.set(space, (rows = new Map()));
    const hit = rows.get(key);
    if (hit) {
      if (hit !== this.newest) {
        this.unlink(hit);
        this.append(hit);
      }
      return hit.row;
    }
    const row = make(); // may read (and cache) other rows first
    const node: CachedRow = { space: rows, key, row, prev: null, next: null };
    rows.set(key, node);
    this.append(node);
    this.bytes += row.byteLength;
    this.count++;
    while (this.bytes > this.maxBytes && this.count > 1) {
      const old = this.oldest!;
      this.unlink(old);
      old.space.delete(old.key);
      this.bytes -= old.row.byteLength;
      this.count--;
    }
    return row;
  }

  private unlink(n: CachedRow): void {
    if (n.prev) n.prev.next = n.next;
    else this.oldest = n.next;
    if (n.next) n.next.prev = n.prev;
    else this.newest = n.prev;
    n.prev = n.next = null;
  }

  private append(n: CachedRow): void {
    n.prev = this.newest;
    if (this.newest) this.newest.next = n;
    else this.oldest = n;
    this.newest = n;
  }
}
