/**
 * The k best indices of `scores`, best first, ties to the lower index: what sorting every index
 * by (score desc, index asc) and keeping k gives, in O(n·k) with k small (a differential of 10)
 * instead of sorting thousands of diagnoses per query.
 */
export function topK(scores: ArrayLike<number>, k: number): number[] {
  const best: number[] = [];
  if (k <= 0) return best;
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i]!;
    // Strictly better than the current last: an equal score keeps the earlier index ahead.
    if (best.length === k && !(v > scores[best[k - 1]!]!)) continue;
    let j = best.length;
    while (j > 0 && v > scores[best[j - 1]!]!) j--;
    best.splice(j, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}

/** The k best of indices 0..n−1 under a strict order `better(a, b)` (a ranks before b), best first. */
export function topKBy(n: number, k: number, better: (a: number, b: number) => boolean): number[] {
  const best: number[] = [];
  if (k <= 0) return best;
  for (let i = 0; i < n; i++) {
    if (best.length === k && !better(i, best[k - 1]!)) continue;
    let j = best.length;
    while (j > 0 && better(i, best[j - 1]!)) j--;
    best.splice(j, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}
