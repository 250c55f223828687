import type { Tertiles } from './bins.js';

/**
 * Continuous percentile with linear interpolation between the closest ranks, the definition
 * of PostgreSQL's percentile_cont: the OMOP source asks the database for its cut points and
 * the FHIR source computes them here, and the same values must give the same bins.
 */
export function percentileCont(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no values');
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return lo === hi ? a : a + (b - a) * (pos - lo);
}

/**
 * Collects the values of numeric codes that have no reference range, per code, during a
 * source's first pass, then gives each code's tertile cut points. Holds numbers only (8
 * bytes a value), never rows.
 */
export class TertileCollector {
  private readonly values = new Map<string, number[]>();

  add(code: string, value: number): void {
    if (!Number.isFinite(value)) return;
    const list = this.values.get(code);
    if (list === undefined) this.values.set(code, [value]);
    else list.push(value);
  }

  /** code -> cut points, for every code with at least one value. */
  tertiles(): Map<string, Tertiles> {
    const out = new Map<string, Tertiles>();
    for (const [code, list] of this.values) {
      // Float64Array sorts numerically (Array#sort would compare as strings).
      const sorted = Float64Array.from(list).sort();
      out.set(code, { c1: percentileCont(sorted, 1 / 3), c2: percentileCont(sorted, 2 / 3) });
    }
    return out;
  }
}
