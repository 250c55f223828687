/** Small statistics helpers for the benchmark tables. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(ms: number[]): { n: number; mean: number; p50: number; p99: number; max: number } {
  const s = Float64Array.from(ms).sort();
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return { n: s.length, mean: round(mean), p50: round(percentile(s, 50)), p99: round(percentile(s, 99)), max: round(s[s.length - 1] ?? NaN) };
}

export const round = (x: number, digits = 3): number => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);

export const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
