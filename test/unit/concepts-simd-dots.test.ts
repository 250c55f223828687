import { strict as assert } from 'node:assert';
import type { FormEntry } from '../../src/clinical-text/concepts/concept-index.js';
import { buildFormVectors, nearestForm, nearestFormByScan, nearestFormsOf } from '../../src/clinical-text/concepts/embed-forms.js';
import { SIMD_ROUNDING, SIMD_WIDTH, simdDots } from '../../src/clinical-text/concepts/simd-dots.js';
import { seededRandom } from '../../src/util/rng.js';

/**
 * The SIMD dot products only choose which forms nearestForm scores exactly: they must stay within
 * their rounding bound of the float64 dot products, and nearestForm must still answer what a scan
 * of every form answers when forms differ by less than that bound (near ties, exact ties).
 */
const entry = (i: number) => ({ form: `form ${i}` }) as unknown as FormEntry;

function unit(rand: () => number, dim: number, base?: Float32Array, noise = 1): Float32Array {
  const v = new Float32Array(dim);
  for (let j = 0; j < dim; j++) v[j] = (base ? base[j]! : 0) + noise * (rand() - 0.5);
  let s = 0;
  for (const x of v) s += x * x;
  return v.map((x) => x / Math.sqrt(s));
}

describe('concepts: SIMD dot products of the embedding fallback', () => {
  it('are available here (WebAssembly SIMD) and refuse a width they cannot step through', () => {
    assert.notEqual(simdDots(new Float32Array(4 * 64), 64), null);
    assert.equal(simdDots(new Float32Array(4 * 70), 70), null);
  });

  for (const dim of [16, 64, 256]) {
    it(`dim ${dim}: every sum within γ_dim·|q|·|row| of the float64 dot product`, () => {
      const rand = seededRandom(dim);
      const rows = Array.from({ length: 257 }, () => unit(rand, dim));
      const matrix = new Float32Array(rows.length * dim);
      rows.forEach((r, i) => matrix.set(r, i * dim));
      const simd = simdDots(matrix, dim)!;
      const gamma = (dim * SIMD_ROUNDING) / (1 - dim * SIMD_ROUNDING);
      let differs = 0;
      for (let q = 0; q < 20; q++) {
        const four = [unit(rand, dim), unit(rand, dim), unit(rand, dim), unit(rand, dim)] as const;
        const sums4 = Float32Array.from(simd.dots4(four));
        assert.equal(sums4.length, 4 * rows.length);
        four.forEach((v, k) => {
          const sums = simd.dots(v);
          assert.equal(sums.length, rows.length);
          rows.forEach((r, i) => {
            let exact = 0;
            for (let j = 0; j < dim; j++) exact += r[j]! * v[j]!;
            assert.ok(Math.abs(sums[i]! - exact) <= gamma, `row ${i}: ${sums[i]} vs ${exact}`);
            assert.ok(Math.abs(sums4[4 * i + k]! - exact) <= gamma, `row ${i} of four (${k}): ${sums4[4 * i + k]} vs ${exact}`);
            if (sums[i] !== exact) differs++;
          });
        });
      }
      // The sums are float32: they do differ from the float64 products, which is why only the bound is trusted.
      assert.ok(differs > 0);
    });
  }

  it('nearestForm answers as the scan where forms differ by less than the float32 rounding', () => {
    const dim = 64;
    assert.equal(dim % SIMD_WIDTH, 0);
    const rand = seededRandom(11);
    const rows: Float32Array[] = [];
    for (let i = 0; i < 120; i++) {
      const base = unit(rand, dim);
      rows.push(base);
      // Copies nudged in the last bits (near ties) and exact copies (ties: the first wins).
      rows.push(base.map((x, j) => (j % 7 === 0 ? x * (1 + 2 ** -22) : x)));
      if (i % 5 === 0) rows.push(base);
    }
    const forms = buildFormVectors('test', rows.map((_, i) => entry(i)), rows);
    let reached = 0;
    const phrases = Array.from({ length: 80 }, () => unit(rand, dim, rows[Math.floor(rand() * rows.length)], 0.001 + rand() * 0.4));
    for (const [q, v] of phrases.entries()) {
      for (const threshold of [-1, 0.65, 0.8, 0.99]) {
        const fast = nearestForm(forms, v, threshold);
        assert.deepEqual(fast, nearestFormByScan(forms, v, threshold), `phrase ${q} threshold ${threshold}`);
        if (fast && threshold >= 0.8) reached++;
      }
    }
    assert.ok(reached > 20, `too few phrases reached the threshold (${reached})`);
    // Four at a time and the rest one by one (batches of 0 to 9), each at its own threshold.
    for (let count = 0; count <= 9; count++) {
      const batch = phrases.slice(count * 7, count * 7 + count);
      const thresholds = batch.map((_, k) => [0.65, 0.8, 0.99, -1][k % 4]!);
      assert.deepEqual(nearestFormsOf(forms, batch, thresholds), batch.map((v, k) => nearestFormByScan(forms, v, thresholds[k]!)), `batch of ${count}`);
    }
  });
});
