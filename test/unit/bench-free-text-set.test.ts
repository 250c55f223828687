import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadVignettes, type Vignette } from '../../bench/lib/free-text-set.js';

/** The shipped dev set (datasets/vignettes/dev.jsonl) keeps the shape issue 17 asks for. */
const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

describe('datasets/vignettes/dev.jsonl (the free-text dev set)', () => {
  let set: Vignette[];
  let conditions: string[];
  before(async () => {
    set = await loadVignettes(root('datasets/vignettes/dev.jsonl'), root('datasets/ddxplus'));
    conditions = Object.keys(JSON.parse(await readFile(root('datasets/ddxplus/release_conditions.json'), 'utf8')) as object);
  });

  it('has at least 160 cases and at least 3 of every one of the 49 conditions', () => {
    assert.ok(set.length >= 160, `${set.length} cases`);
    assert.equal(conditions.length, 49);
    const per = new Map<string, number>();
    for (const v of set) per.set(v.condition, (per.get(v.condition) ?? 0) + 1);
    const thin = conditions.filter((c) => (per.get(c) ?? 0) < 3);
    assert.deepEqual(thin, [], `conditions with fewer than 3 vignettes: ${thin.join(', ')}`);
  });

  it('mixes clinician and lay styles about half and half, with enough negations, typos and abbreviations', () => {
    const count = (tag: string) => set.filter((v) => v.tags.includes(tag as Vignette['tags'][number])).length;
    const lay = set.filter((v) => v.style === 'lay').length / set.length;
    assert.ok(lay >= 0.4 && lay <= 0.6, `lay share ${lay}`);
    assert.ok(count('negation') >= 40, `negation ${count('negation')}`);
    assert.ok(count('typo') >= 20, `typo ${count('typo')}`);
    assert.ok(count('abbrev') >= 20, `abbrev ${count('abbrev')}`);
    assert.ok(set.filter((v) => v.absentEvidences.length > 0).length >= 40, 'negated evidence codes annotated');
  });

  it('short and long tags follow the text length (< 60, >= 200 characters)', () => {
    for (const v of set) {
      assert.equal(v.tags.includes('short'), v.text.length < 60, `${v.id} short`);
      assert.equal(v.tags.includes('long'), v.text.length >= 200, `${v.id} long`);
    }
  });

  it('ids are v001.. in order, without gaps', () => {
    assert.deepEqual(set.map((v) => v.id), set.map((_, i) => `v${String(i + 1).padStart(3, '0')}`));
  });
});

describe('datasets/vignettes/cal.jsonl (the calibration set, issue 26)', () => {
  it('holds 3 cases of every condition, each third of the file covering all 49 (so --calibrate-every and folds see every condition)', async () => {
    const set = await loadVignettes(root('datasets/vignettes/cal.jsonl'), root('datasets/ddxplus'));
    const conditions = Object.keys(JSON.parse(await readFile(root('datasets/ddxplus/release_conditions.json'), 'utf8')) as object);
    assert.equal(set.length, 147);
    assert.deepEqual(set.map((v) => v.id), set.map((_, i) => `v${1101 + i}`));
    for (let t = 0; t < 3; t++) assert.deepEqual(new Set(set.slice(49 * t, 49 * (t + 1)).map((v) => v.condition)), new Set(conditions), `third ${t + 1}`);
    for (const v of set) assert.equal(v.tags.includes('short'), v.text.length < 60, `${v.id} short`);
  });
});

describe('datasets/vignettes/dev-c.jsonl, dev-d.jsonl and dev-e.jsonl (dev sets written blind)', () => {
  for (const [file, first] of [['dev-c', 1301], ['dev-d', 1501], ['dev-e', 1701]] as const) {
    it(`${file}: 3 cases of every condition, ids v${first}.. in order, each condition in both styles`, async () => {
      const set = await loadVignettes(root(`datasets/vignettes/${file}.jsonl`), root('datasets/ddxplus'));
      const conditions = Object.keys(JSON.parse(await readFile(root('datasets/ddxplus/release_conditions.json'), 'utf8')) as object);
      assert.equal(set.length, 147);
      assert.deepEqual(set.map((v) => v.id), set.map((_, i) => `v${first + i}`));
      for (const c of conditions) {
        const mine = set.filter((v) => v.condition === c);
        assert.equal(mine.length, 3, c);
        assert.deepEqual(new Set(mine.map((v) => v.style)), new Set(['clinician', 'lay']), c);
      }
      for (const v of set) assert.equal(v.tags.includes('short'), v.text.length < 60, `${v.id} short`);
    });
  }
});
