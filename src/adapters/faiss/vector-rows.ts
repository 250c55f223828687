import { InputError } from '../../errors.js';

/** Rows as one flat Float32Array (n * dim, row-major) or one Float32Array per row. */
export type Vectors = Float32Array | readonly Float32Array[];

/** Rows in `vectors`, after checking that each has `dim` values. */
export function rowCount(vectors: Vectors, dim: number): number {
  if (vectors instanceof Float32Array) {
    if (vectors.length % dim !== 0) throw new InputError(`vector data length ${vectors.length} is not a multiple of dim ${dim}`, { field: 'vectors' });
    return vectors.length / dim;
  }
  for (const v of vectors) if (v.length !== dim) throw new InputError(`vector of length ${v.length}, index dim is ${dim}`, { field: 'vectors' });
  return vectors.length;
}

const range = (start: number, end: number) => Array.from({ length: end - start }, (_, i) => start + i);

/** Rows [start, end) copied into one buffer and L2-normalised (zero rows stay zero). */
export function normalizedRows(vectors: Vectors, dim: number, start: number, end: number): Float32Array {
  return normalizedRowsAt(vectors, dim, range(start, end));
}

/** Evenly strided rows: input order often follows the diagnosis, so a prefix would be biased. */
export function stridedRows(n: number, sample: number): number[] {
  return Array.from({ length: sample }, (_, i) => Math.floor((i * n) / sample));
}

/** The rows at `rows`, copied into one buffer and L2-normalised (zero rows stay zero). */
export function normalizedRowsAt(vectors: Vectors, dim: number, rows: readonly number[]): Float32Array {
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
