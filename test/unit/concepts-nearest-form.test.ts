import { strict as assert } from 'node:assert';
import type { FormEntry } from '../../src/clinical-text/concepts/concept-index.js';
import { buildFormVectors, nearestForm, nearestFormByScan, nearestForms, type PhraseEmbedder } from '../../src/clinical-text/concepts/embed-forms.js';
import { seededRandom as mulberry32 } from '../../src/util/rng.js';

/**
 * nearestForm gives up on forms that cannot reach the bar; it must answer exactly what a scan of
 * every form answers (same form, same score to the last bit, first of equal scores), whatever the
 * dimension, and nearestForms must remember without changing an answer.
 */
const entry = (i: number) => ({ form: `form ${i}` }) as unknown as FormEntry;

function unit(rand: () => number, dim: number, base?: Float32Array, noise = 1): Float32Array {
  const v = new Float32Array(dim);
  for (let j = 0; j < dim; j++) v[j] = (base ? base[j]! : 0) + noise * (rand() - 0.5);
  return normed(v);
}

function normed(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  return v.map((x) => x / Math.sqrt(s));
}

/** Rows with Matryoshka-like decay (most weight in the leading dimensions, as WordLlama's), duplicates for ties. */
function formSet(rand: () => number, n: number, dim: number): Float32Array[] {
  const rows: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 17 === 0) rows.push(rows[Math.floor(rand() * i)]!); // an exact tie later in the list
    else rows.push(unit(rand, dim).map((x, j) => x * Math.exp(-j / (dim / 3))));
  }
  return rows.map(normed);
}

describe('concepts: nearest form by embedding', () => {
  for (const dim of [256, 70, 8]) {
    it(`dim ${dim}: the same form and score as a scan of every form, at every threshold`, () => {
      const rand = mulberry32(dim);
      const rows = formSet(rand, 300, dim);
      const forms = buildFormVectors('test', rows.map((_, i) => entry(i)), rows);
      let reached = 0;
      for (let q = 0; q < 60; q++) {
        // Half the phrases near a form (high cosines, ties with its duplicates), half anywhere.
        const v = q % 2 === 0 ? unit(rand, dim, rows[Math.floor(rand() * rows.length)], 0.02 + rand() * 0.3) : unit(rand, dim);
        for (const threshold of [-1, 0.3, 0.65, 0.8]) {
          const fast = nearestForm(forms, v, threshold);
          const scan = nearestFormByScan(forms, v, threshold);
          assert.deepEqual(fast, scan, `phrase ${q} threshold ${threshold}`);
          if (fast && threshold >= 0.65) reached++;
        }
      }
      assert.ok(reached > 10, `too few phrases reached the threshold (${reached}) for the test to mean anything`);
    });
  }

  it('remembers each phrase per form set: embedded once, the same answers as asking afresh', () => {
    const rand = mulberry32(7);
    const rows = formSet(rand, 200, 64);
    const forms = buildFormVectors('test', rows.map((_, i) => entry(i)), rows);
    const byText = new Map<string, Float32Array>(['chest pain', 'sob', 'no jvd'].map((t, i) => [t, unit(rand, 64, rows[i * 50], 0.05)]));
    const embedded: string[] = [];
    const embedder: PhraseEmbedder = { id: 'test', embedVectors: (texts) => texts.map((t) => (embedded.push(t), byText.get(t)!)) };
    const asked = [{ text: 'chest pain', threshold: 0.65 }, { text: 'sob', threshold: 0.8 }, { text: 'chest pain', threshold: 0.65 }];
    const first = nearestForms(forms, embedder, asked);
    assert.deepEqual(embedded, ['chest pain', 'sob']);
    assert.deepEqual(first, asked.map((a) => nearestFormByScan(forms, byText.get(a.text)!, a.threshold)));
    assert.ok(first[0] !== null, 'a phrase near a form finds it');
    const again = nearestForms(forms, embedder, [...asked, { text: 'no jvd', threshold: 0.65 }, { text: 'sob', threshold: 0.65 }]);
    assert.deepEqual(embedded, ['chest pain', 'sob', 'no jvd', 'sob'], 'only phrases (and thresholds) not asked before');
    assert.deepEqual(again.slice(0, 3), first);
    assert.deepEqual(again[4], nearestFormByScan(forms, byText.get('sob')!, 0.65));
  });
});
