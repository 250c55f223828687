import assert from 'node:assert/strict';
import { aggregateHierarchy } from '../../kg-build/aggregate-hierarchy.js';
import { statisticalKeyDifferences } from '../../kg-build/key-differences.js';
import { siblingsOf } from '../../kg-build/siblings.js';
import { blockFixture } from '../support/memory-source.js';

describe('kg-build statistical key differences (eq. 5 without an LLM)', () => {
  it('keeps features frequent in the disease and rare in its siblings, with both prevalences', async () => {
    const input = blockFixture(2, 3);
    const hierarchy = await aggregateHierarchy(input, { mode: 'statistical', sizes: { subcategories: 2, categories: 1 } });
    const kds = statisticalKeyDifferences({ ...input, hierarchy });
    const sibs = siblingsOf(input.diseases.map((d) => d.id), hierarchy);
    for (const d of input.diseases) {
      const mine = kds.filter((k) => k.diseaseId === d.id);
      assert.ok(mine.length > 0, `${d.id} has key differences`);
      for (const k of mine) {
        assert.deepEqual(k.contrastsWith, sibs.get(d.id));
        const pIn = input.manifestations.find((m) => m.diseaseId === d.id && m.featureId === k.featureId)!.prevalence;
        const pSib = k.contrastsWith.reduce((s, o) => s + (input.manifestations.find((m) => m.diseaseId === o && m.featureId === k.featureId)?.prevalence ?? 0), 0) / k.contrastsWith.length;
        assert.equal(k.prevalenceIn, pIn);
        assert.ok(Math.abs(k.prevalenceSiblings! - pSib) < 1e-12);
        assert.ok(pIn >= 0.5 && pSib <= 0.2);
        assert.equal(k.source, 'statistical');
        assert.match(k.text, /\d+% in .* vs \d+% in /);
      }
      // the shared block features and the common one are never key differences within the block
      assert.ok(mine.every((k) => k.featureId!.startsWith('feat:own-')), 'only the disease-specific feature differs from its siblings');
    }
  });

  it('thresholds are configuration: a strict sibling ceiling removes them all', async () => {
    const input = blockFixture(2, 3);
    const hierarchy = await aggregateHierarchy(input, { mode: 'statistical', sizes: { subcategories: 2, categories: 1 } });
    assert.equal(statisticalKeyDifferences({ ...input, hierarchy }, { minPrevalenceIn: 0.95 }).length, 0);
    assert.ok(statisticalKeyDifferences({ ...input, hierarchy }, { perDisease: 1 }).length <= input.diseases.length);
  });

  it('a disease alone in its subcategory is contrasted with the rest of its category', () => {
    const h = {
      mode: 'statistical' as const,
      categories: [{ id: 'cat:x', name: 'x' }],
      subcategories: [{ id: 'sub:a', name: 'a', categoryId: 'cat:x' }, { id: 'sub:b', name: 'b', categoryId: 'cat:x' }],
      subcategoryOf: new Map([['d1', 'sub:a'], ['d2', 'sub:b'], ['d3', 'sub:b']]),
    };
    const s = siblingsOf(['d1', 'd2', 'd3'], h);
    assert.deepEqual(s.get('d1'), ['d2', 'd3']);
    assert.deepEqual(s.get('d2'), ['d3']);
  });
});
