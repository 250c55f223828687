/**
 * Top-label calibration (Gupta & Ramdas, "Top-label calibration and multiclass-to-binary
 * reductions", ICLR 2022): the probability shown for the first disease is mapped through an
 * isotonic fit of "was the first disease right" on held-out cases (pool-adjacent-violators,
 * Barlow et al. 1972), and every other disease is rescaled by the same factor (1 − p₁') / (1 − p₁),
 * so the order never changes:
 *
 *   p₁' = g(p₁),   p_j' = p_j · (1 − p₁') / (1 − p₁)   (j ≠ 1),   g monotone, fitted on held-out cases
 *
 * Why beside the temperature (temperature.ts): the NLL-optimal temperature fits the whole
 * distribution, and at the chief complaint alone it still left the first disease about 4 points
 * overconfident (ECE 0.061, docs/eval.md); the number a clinician reads first is p₁. Lowering an
 * overconfident p₁ hands its excess to the rest in proportion, which is also where a true
 * diagnosis shown under 1% gets its share back.
 *
 * g is piecewise linear through the isotonic blocks' (mean p₁, accuracy) points, each block holding
 * at least `minBlock` cases (a step per case would memorise the fit set), continued by p·y₁/x₁ below
 * the first point and by a straight line to (1, 1) above the last.
 */
export interface TopLabelMap {
  /** Block centres: mean p₁ (ascending) and accuracy (non-decreasing). */
  x: number[];
  y: number[];
}

/** Isotonic (non-decreasing) fit of `right` on `p`, blocks of at least `minBlock` cases. */
export function fitTopLabel(pairs: readonly { p: number; right: boolean }[], minBlock: number): TopLabelMap | null {
  if (pairs.length < 2 * minBlock) return null;
  const sorted = [...pairs].sort((a, b) => a.p - b.p);
  type Block = { n: number; sp: number; sy: number };
  const blocks: Block[] = [];
  for (const s of sorted) {
    blocks.push({ n: 1, sp: s.p, sy: s.right ? 1 : 0 });
    // Pool while the order is violated, or while the last block is too small to stand alone.
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!;
      const a = blocks[blocks.length - 2]!;
      if (a.sy / a.n < b.sy / b.n && a.n >= minBlock) break;
      blocks.splice(blocks.length - 2, 2, { n: a.n + b.n, sp: a.sp + b.sp, sy: a.sy + b.sy });
    }
  }
  // The last block may be short: pool it into its neighbour (keeps the order: pooling two ordered blocks stays between them).
  while (blocks.length > 1 && blocks[blocks.length - 1]!.n < minBlock) {
    const b = blocks.pop()!;
    const a = blocks.pop()!;
    blocks.push({ n: a.n + b.n, sp: a.sp + b.sp, sy: a.sy + b.sy });
  }
  return { x: blocks.map((b) => b.sp / b.n), y: blocks.map((b) => b.sy / b.n) };
}

/** g(p) of the header. */
export function topLabelValue(m: TopLabelMap, p: number): number {
  const { x, y } = m;
  const k = x.length;
  if (p <= x[0]!) return x[0]! > 0 ? (p * y[0]!) / x[0]! : y[0]!;
  if (p >= x[k - 1]!) return x[k - 1]! >= 1 ? y[k - 1]! : y[k - 1]! + ((p - x[k - 1]!) * (1 - y[k - 1]!)) / (1 - x[k - 1]!);
  let i = 1;
  while (x[i]! < p) i++;
  const t = (p - x[i - 1]!) / (x[i]! - x[i - 1]! || 1);
  return y[i - 1]! + t * (y[i]! - y[i - 1]!);
}

/** Applies the map in place: p₁ mapped, the rest rescaled; p₁' kept at or above the rescaled second, so no order changes. */
export function applyTopLabel(probs: Float64Array, m: TopLabelMap): void {
  if (probs.length < 2) return;
  let top = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[top]!) top = i;
  const p1 = probs[top]!;
  if (p1 >= 1) return; // nothing to rescale the rest from
  let p2 = 0;
  for (let i = 0; i < probs.length; i++) if (i !== top && probs[i]! > p2) p2 = probs[i]!;
  // p₁' ≥ p₂ · (1 − p₁') / (1 − p₁)  ⇔  p₁' ≥ p₂ / (1 − p₁ + p₂)
  const floor = (p2 / (1 - p1 + p2)) * (1 + 1e-12); // a hair above: rounding must not put the second above the first
  const mapped = Math.min(1 - 1e-9, Math.max(floor, topLabelValue(m, p1)));
  const scale = (1 - mapped) / (1 - p1);
  for (let i = 0; i < probs.length; i++) probs[i] = i === top ? mapped : probs[i]! * scale;
}
