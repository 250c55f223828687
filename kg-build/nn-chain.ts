import { Cluster } from 'ml-hclust';

/**
 * Agglomerative clustering by the nearest-neighbour chain (Murtagh 1983; Müllner, "Modern
 * hierarchical, agglomerative clustering algorithms", 2011, §3.1): O(n²) time on a distance matrix
 * updated in place, where ml-hclust's `agnes` copies the whole matrix at every merge (cubic: 12 s
 * at 1,000 diagnoses, 59 s at 2,000, not finished at 5,000; docs/benchmarks.md). For the
 * reducible linkages used here (complete, average, and ward as Lance–Williams on the distances,
 * ml-hclust's own update formulas) the chain makes the same merges at the same heights, so the
 * dendrogram is the same up to ties; it is returned as ml-hclust Clusters, so `cut` and `group`
 * are theirs.
 */
export type Linkage = 'complete' | 'average' | 'ward';

/** Below this many items the build keeps agnes (every KG measured so far, bit for bit, ties included); from it the chain. */
export const NN_CHAIN_FROM = 500;

/** d(k, i ∪ j) from d(k, i), d(k, j), d(i, j) and the sizes (ml-hclust agnes's update functions). */
function update(method: Linkage, dKI: number, dKJ: number, dIJ: number, ni: number, nj: number, nk: number): number {
  if (method === 'complete') return Math.max(dKI, dKJ);
  if (method === 'average') return (ni * dKI + nj * dKJ) / (ni + nj);
  const n = ni + nj + nk;
  return ((ni + nk) * dKI + (nj + nk) * dKJ - nk * dIJ) / n;
}

/** The dendrogram of `n` items whose distances `dist(i, j)` gives (read once each pair). */
export function nnChain(n: number, dist: (i: number, j: number) => number, method: Linkage): Cluster {
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) d[i * n + j] = d[j * n + i] = dist(i, j);
  const node: Cluster[] = Array.from({ length: n }, (_, i) => {
    const c = new Cluster();
    c.isLeaf = true;
    c.index = i;
    return c;
  });
  const size = new Float64Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  let remaining = n;
  const chain: number[] = [];
  while (remaining > 1) {
    if (chain.length === 0) chain.push(active.indexOf(1));
    const a = chain[chain.length - 1]!;
    const prev = chain.length >= 2 ? chain[chain.length - 2]! : -1;
    // Nearest active neighbour of a; on a tie the chain's previous element wins (so the chain ends), then the lowest index.
    let b = -1;
    let best = Infinity;
    for (let x = 0; x < n; x++) {
      if (x === a || active[x] !== 1) continue;
      const v = d[a * n + x]!;
      if (v < best || (v === best && x === prev)) [b, best] = [x, v];
    }
    if (b !== prev) {
      chain.push(b);
      continue;
    }
    chain.length -= 2;
    // Merge a and b into slot min(a, b); the other slot retires.
    const [keep, drop] = a < b ? [a, b] : [b, a];
    const merged = new Cluster();
    merged.children = [node[a]!, node[b]!];
    merged.height = best;
    merged.size = node[a]!.size + node[b]!.size;
    for (let k = 0; k < n; k++) {
      if (active[k] !== 1 || k === a || k === b) continue;
      const v = update(method, d[k * n + a]!, d[k * n + b]!, best, size[a]!, size[b]!, size[k]!);
      d[keep * n + k] = d[k * n + keep] = v;
    }
    size[keep] = size[a]! + size[b]!;
    node[keep] = merged;
    active[drop] = 0;
    remaining--;
  }
  return node[active.indexOf(1)]!;
}
