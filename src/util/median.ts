/** The median of the positive counts (zeros are diseases without notes), or null when there are none. */
export function medianOfPositive(counts: Iterable<number>): number | null {
  const xs = [...counts].filter((n) => n > 0).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = xs.length >> 1;
  return xs.length % 2 === 1 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
}
