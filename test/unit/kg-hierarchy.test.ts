import assert from 'node:assert/strict';
import { aggregateHierarchy, checkHierarchy } from '../../kg-build/aggregate-hierarchy.js';
import { icd10Category, icd10Chapter } from '../../kg-build/hierarchy-icd10.js';
import { resolveSizes } from '../../kg-build/hierarchy-types.js';
import { splitOversized } from '../../kg-build/hierarchy-statistical.js';
import { blockFixture } from '../support/memory-source.js';

const members = (h: { subcategoryOf: Map<string, string> }, sub: string) => [...h.subcategoryOf.entries()].filter(([, s]) => s === sub).map(([d]) => d).sort();

describe('kg-build aggregate-hierarchy (MedRAG eq. 4)', () => {
  it('statistical: recovers groups of diseases with shared manifestations as subcategories', async () => {
    const input = blockFixture(4, 3);
    const h = await aggregateHierarchy(input, { mode: 'statistical', sizes: { subcategories: 4, categories: 2 } });
    assert.equal(h.mode, 'statistical');
    assert.equal(h.subcategories.length, 4);
    assert.equal(h.categories.length, 2);
    for (const s of h.subcategories) {
      const blocks = new Set(members(h, s.id).map((d) => d.split('-')[0]));
      assert.equal(blocks.size, 1, `subcategory ${s.name} mixes blocks`);
    }
    // named after distinctive features, not the feature every disease has
    for (const s of h.subcategories) assert.match(s.name, /block \d sign|own sign/);
    assert.ok(!h.subcategories.some((s) => s.name.includes('common sign')));
  });

  it("'auto' picks by mode: statistical without an LLM; sizes scale with the disease count", async () => {
    const input = blockFixture(7, 7);
    const h = await aggregateHierarchy(input, { mode: 'auto', sizes: { subcategories: 'auto', categories: 'auto' } });
    assert.equal(h.mode, 'statistical');
    const { l2, l1 } = resolveSizes(49, { subcategories: 'auto', categories: 'auto' });
    assert.ok(l2 >= 8 && l2 <= 15 && l1 >= 3 && l1 <= 6, `${l2}/${l1}`);
    assert.equal(h.subcategories.length, l2);
    assert.equal(h.categories.length, l1);
    assert.equal(h.subcategoryOf.size, 49);
  });

  it('icd10: chapter as L1, 3-character category as L2; codes in any case, lists use the first', async () => {
    assert.equal(icd10Category('j17, j18'), 'J17');
    assert.equal(icd10Category('g44.009'), 'G44');
    assert.equal(icd10Category(null), null);
    assert.equal(icd10Chapter('I20')?.roman, 'IX');
    assert.equal(icd10Chapter('H66')?.roman, 'VIII');
    assert.equal(icd10Chapter('T78')?.roman, 'XIX');
    const base = blockFixture(1, 4);
    const codes = ['I20.0', 'I20.9', 'j45', null];
    const input = { ...base, diseases: base.diseases.map((d, i) => ({ ...d, icd10: codes[i]! })) };
    const h = await aggregateHierarchy(input, { mode: 'icd10', sizes: { subcategories: 'auto', categories: 'auto' } });
    const [a, b, c, d] = input.diseases.map((x) => h.subcategoryOf.get(x.id));
    assert.equal(a, b, 'I20.0 and I20.9 share the I20 subcategory');
    assert.notEqual(a, c);
    assert.equal(d, 'sub:icd10-unclassified');
    assert.deepEqual(h.categories.map((x) => x.id).sort(), ['cat:icd10-ix', 'cat:icd10-unclassified', 'cat:icd10-x']);
  });

  it('icd10 mode without any code and llm mode without a chat model are input errors', async () => {
    const input = blockFixture(1, 2);
    await assert.rejects(aggregateHierarchy(input, { mode: 'icd10', sizes: { subcategories: 'auto', categories: 'auto' } }), /no ICD-10 codes/);
    await assert.rejects(aggregateHierarchy(input, { mode: 'llm', sizes: { subcategories: 'auto', categories: 'auto' } }), /needs a chat model/);
  });

  it('statistical: a subcategory over 4x the mean size is clustered again; groups under the cap are kept as they are', () => {
    // 40 items: a giant group of 30 (three tight families of 10) beside ten singletons.
    const member = (i: number) => new Map([[`f${i % 3}`, 1], [`g${i % 3}`, 0.5], [`own${i}`, 0.1]]);
    const profiles = [...Array.from({ length: 30 }, (_, i) => member(i)), ...Array.from({ length: 10 }, (_, i) => new Map([[`s${i}`, 1]]))];
    const groups = [Array.from({ length: 30 }, (_, i) => i), ...Array.from({ length: 10 }, (_, i) => [30 + i])];
    const out = splitOversized(groups, profiles, { method: 'ward', maxSizeFactor: 4 });
    // mean 40 / 11 = 3.6, cap 15: the 30 split into ceil(30 / 3.6) = 9 groups, the singletons untouched.
    assert.equal(out.length, 19);
    assert.ok(out.every((g) => g.length <= 15), out.map((g) => g.length).join(','));
    assert.deepEqual(out.flat().sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i), 'every disease once');
    for (let i = 30; i < 40; i++) assert.ok(out.some((g) => g.length === 1 && g[0] === i));
    // No family is torn apart across groups of different families: each group holds one family only.
    for (const g of out.filter((x) => x[0]! < 30)) assert.equal(new Set(g.map((i) => i % 3)).size, 1);
    assert.equal(splitOversized(groups, profiles, { method: 'ward', maxSizeFactor: 10 }), groups, 'under the cap: the same groups');
  });

  it('the invariant check rejects a disease without a subcategory and an empty category', () => {
    const input = blockFixture(1, 2);
    const h = {
      mode: 'statistical' as const,
      categories: [{ id: 'cat:a', name: 'a' }, { id: 'cat:b', name: 'b' }],
      subcategories: [{ id: 'sub:a', name: 'a', categoryId: 'cat:a' }],
      subcategoryOf: new Map([[input.diseases[0]!.id, 'sub:a']]),
    };
    assert.throws(() => checkHierarchy(input, h), /has no subcategory.*category cat:b is empty/);
  });
});
