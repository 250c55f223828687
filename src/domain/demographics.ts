/**
 * Age bands shared by the build (per-disease counts on :Disease nodes) and the query side
 * (the evidence reasoner's demographic prior, the consultation's demographic model).
 * Upper bounds, exclusive: infant, toddler, child, young adult ... elderly.
 */
export const AGE_BANDS: readonly number[] = [1, 5, 15, 30, 45, 60, 75, Infinity];

export function ageBand(age: number): number {
  return AGE_BANDS.findIndex((upper) => age < upper);
}

/** Per-disease counts collected while scanning records. */
export interface DemographicTally {
  ageBands: number[];
  sexCounts: number[];
}

export const emptyTally = (): DemographicTally => ({ ageBands: AGE_BANDS.map(() => 0), sexCounts: [0, 0] });

export function tally(t: DemographicTally, d: { age: number | null; sex: 'M' | 'F' | null }): void {
  if (d.age !== null && d.age >= 0) t.ageBands[ageBand(d.age)]! += 1;
  if (d.sex !== null) t.sexCounts[d.sex === 'M' ? 0 : 1]! += 1;
}

export function addTallies(a: DemographicTally, b: DemographicTally): DemographicTally {
  return { ageBands: a.ageBands.map((v, i) => v + (b.ageBands[i] ?? 0)), sexCounts: a.sexCounts.map((v, i) => v + (b.sexCounts[i] ?? 0)) };
}

/** Lidstone-smoothed log P(category k) from counts: log((row[k] + α) / (n + α·K)). */
export function logCategorical(row: readonly number[], k: number, alpha = 1): number {
  const n = row.reduce((a, v) => a + v, 0);
  return Math.log((row[k]! + alpha) / (n + alpha * row.length));
}
