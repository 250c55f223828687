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

  it('a disease with more siblings than maxContrasts is contrasted with the closest by profile, named as such', () => {
    // One subcategory of 6: d0 shares a feature with d1 and d2 only; everyone has an own sign.
    const ids = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'];
    const diseases = ids.map((id) => ({ id, name: `Disease ${id}`, icd10: null, recordCount: 50, aliases: [] }));
    const m = (diseaseId: string, featureId: string, prevalence: number) => ({ diseaseId, featureId, prevalence, count: Math.round(prevalence * 50), source: 'ehr' as const });
    const manifestations = [...ids.map((id) => m(id, `own-${id}`, 0.9)), m('d0', 'shared', 0.6), m('d1', 'shared', 0.7), m('d2', 'shared', 0.1)];
    const features = [...new Set(manifestations.map((x) => x.featureId))].map((id) => ({ id, text: id, kind: 'ehr' as const, code: id, valueCode: null, question: id, valueText: 'yes', antecedent: false }));
    const hierarchy = { mode: 'statistical' as const, categories: [{ id: 'cat:x', name: 'x' }], subcategories: [{ id: 'sub:a', name: 'a', categoryId: 'cat:x' }], subcategoryOf: new Map(ids.map((id) => [id, 'sub:a'])) };
    const kds = statisticalKeyDifferences({ diseases, hierarchy, features, manifestations }, { maxContrasts: 2 });
    const own = kds.find((k) => k.diseaseId === 'd0' && k.featureId === 'own-d0')!;
    assert.deepEqual(own.contrastsWith, ['d1', 'd2']);
    assert.match(own.text, /in Disease d1, Disease d2 \(the 2 closest of 5 siblings\)$/);
    // d3 shares nothing: its contrasts are its first siblings in order; 'shared' is no key difference of d0 against d1 and d2 (mean 0.4).
    assert.deepEqual(kds.find((k) => k.diseaseId === 'd3')!.contrastsWith, ['d0', 'd1']);
    assert.equal(kds.some((k) => k.diseaseId === 'd0' && k.featureId === 'shared'), false);
    // Without the cap every sibling is contrasted, as before.
    assert.deepEqual(statisticalKeyDifferences({ diseases, hierarchy, features, manifestations }).find((k) => k.diseaseId === 'd0')!.contrastsWith, ['d1', 'd2', 'd3', 'd4', 'd5']);
  });
});
