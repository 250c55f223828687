/** Nelder-Mead simplex minimisation (Nelder & Mead 1965; standard coefficients), a fixed number of iterations. */
export function nelderMead(f: (x: readonly number[]) => number, x0: readonly number[], step: number, iterations: number): number[] {
  const n = x0.length;
  let simplex = [x0, ...x0.map((_, i) => x0.map((v, j) => (j === i ? v + step : v)))].map((x) => ({ x: [...x], f: f(x) }));
  for (let it = 0; it < iterations; it++) {
    simplex.sort((a, b) => a.f - b.f);
    const worst = simplex[n]!;
    const centre = x0.map((_, j) => simplex.slice(0, n).reduce((a, s) => a + s.x[j]!, 0) / n);
    const along = (t: number) => centre.map((c, j) => c + t * (worst.x[j]! - c));
    const r = along(-1);
    const fr = f(r);
    if (fr < simplex[0]!.f) {
      const e = along(-2);
      const fe = f(e);
      simplex[n] = fe < fr ? { x: e, f: fe } : { x: r, f: fr };
    } else if (fr < simplex[n - 1]!.f) {
      simplex[n] = { x: r, f: fr };
    } else {
      const k = along(0.5);
      const fk = f(k);
      if (fk < worst.f) simplex[n] = { x: k, f: fk };
      else {
        const b = simplex[0]!.x;
        simplex = simplex.map((s, i) => (i === 0 ? s : (() => { const x = s.x.map((v, j) => b[j]! + 0.5 * (v - b[j]!)); return { x, f: f(x) }; })()));
      }
    }
  }
  simplex.sort((a, b) => a.f - b.f);
  return simplex[0]!.x;
}
