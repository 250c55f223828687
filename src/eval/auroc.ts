/** Area under the ROC curve as the Mann-Whitney U statistic (ties count one half). */
export function auroc(scores: readonly number[], positive: readonly boolean[]): number | null {
  const pos = scores.filter((_, i) => positive[i]);
  const neg = scores.filter((_, i) => !positive[i]);
  if (pos.length === 0 || neg.length === 0) return null;
  // Rank-sum form: O(n log n) instead of comparing every pair.
  const all = scores.map((s, i) => ({ s, p: positive[i]! })).sort((a, b) => a.s - b.s);
  let rankSumPos = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.s === all[i]!.s) j++;
    const avgRank = (i + 1 + j) / 2; // ranks i+1..j share their mean
    for (let k = i; k < j; k++) if (all[k]!.p) rankSumPos += avgRank;
    i = j;
  }
  return (rankSumPos - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}
