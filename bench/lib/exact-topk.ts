/**
 * Exact top-k by inner product (the ground truth for recall), folded over chunks of
 * row-major vectors. A small sorted buffer: k is 10, so insertion beats a heap.
 */
export interface TopK {
  scan(query: Float32Array, rows: Float32Array, dim: number, ids: readonly string[]): void;
  sorted(): { id: string; score: number }[];
}

export class ExactTopK implements TopK {
  private readonly scores: Float64Array;
  private readonly ids: string[] = [];
  private size = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k);
  }

  scan(query: Float32Array, rows: Float32Array, dim: number, ids: readonly string[]): void {
    const n = rows.length / dim;
    for (let r = 0; r < n; r++) {
      let s = 0;
      const off = r * dim;
      for (let i = 0; i < dim; i++) s += query[i]! * rows[off + i]!;
      if (this.size === this.k && s <= this.scores[this.k - 1]!) continue;
      let pos = Math.min(this.size, this.k - 1);
      while (pos > 0 && this.scores[pos - 1]! < s) {
        this.scores[pos] = this.scores[pos - 1]!;
        this.ids[pos] = this.ids[pos - 1]!;
        pos--;
      }
      this.scores[pos] = s;
      this.ids[pos] = ids[r]!;
      if (this.size < this.k) this.size++;
    }
  }

  sorted(): { id: string; score: number }[] {
    return Array.from({ length: this.size }, (_, i) => ({ id: this.ids[i]!, score: this.scores[i]! }));
  }
}
