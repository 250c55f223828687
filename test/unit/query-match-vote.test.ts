import { strict as assert } from 'node:assert';
import { matchFeatures } from '../../src/query/match-features.js';
import { voteSubcategory } from '../../src/query/vote-subcategory.js';
import type { FeatureMatch, InputFinding } from '../../src/query/contracts.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { tinyKg } from '../support/query-kg.js';

const f = (text: string, polarity: 'present' | 'absent' = 'present'): InputFinding => ({ text, polarity, code: null, valueCode: null });

describe('query: match features (eq. 9-11)', () => {
  it('keeps only matches above t_matching, at most top-m per finding, in one embedder call', async () => {
    const fx = await tinyKg();
    let calls = 0;
    const embedder = { id: fx.embedder.id, embeddings: { embedDocuments: async (t: string[]) => (calls++, fx.embedder.embeddings.embedDocuments(t)) } };
    const deps = { snapshot: fx.snapshot, embedder, featureIndex: fx.featureIndex };
    const loose = await matchFeatures(deps, { findings: [f('fever'), f('zebra crossing xylophone')], topM: 2, threshold: -1 });
    assert.equal(calls, 1);
    assert.equal(loose.matches.filter((m) => m.findingIndex === 0).length, 2, 'top-m = 2');
    const strict = await matchFeatures(deps, { findings: [f('fever'), f('zebra crossing xylophone')], topM: 2, threshold: 0.99 });
    assert.deepEqual(strict.matches.map((m) => [m.findingIndex, m.featureText]), [[0, 'fever']]);
    assert.ok(strict.matches[0]!.similarity > 0.99);
    assert.deepEqual(strict.unmatched, [1]);
  });

  it('a phrase matched before skips the embedder (memo per feature index), with the same matches', async () => {
    const fx = await tinyKg();
    const embedded: string[] = [];
    const embedder = { id: fx.embedder.id, embeddings: { embedDocuments: async (t: string[]) => (embedded.push(...t), fx.embedder.embeddings.embedDocuments(t)) } };
    const deps = { snapshot: fx.snapshot, embedder, featureIndex: fx.featureIndex };
    const first = await matchFeatures(deps, { findings: [f('fever'), f('cough')], topM: 2, threshold: -1 });
    embedded.length = 0;
    const again = await matchFeatures(deps, { findings: [f('cough'), f('fever'), f('rash')], topM: 2, threshold: -1 });
    assert.deepEqual(embedded.slice(0, 1), ['rash'], 'only the new phrase is embedded');
    const byText = (r: typeof first, i: number) => r.matches.filter((m) => m.findingIndex === i).map((m) => [m.featureId, m.similarity]);
    assert.deepEqual(byText(again, 1), byText(first, 0));
    assert.deepEqual(byText(again, 0), byText(first, 1));
    embedded.length = 0;
    await matchFeatures(deps, { findings: [f('fever')], topM: 3, threshold: -1 });
    assert.deepEqual(embedded.slice(0, 1), ['fever'], 'another top-m is another search');
    const other = await tinyKg();
    embedded.length = 0;
    await matchFeatures({ ...deps, featureIndex: other.featureIndex }, { findings: [f('fever')], topM: 2, threshold: -1 });
    assert.deepEqual(embedded.slice(0, 1), ['fever'], 'another feature index has its own memo');
  });

  it('a measured finding that names a feature verbatim is read, not lost (it takes no nearest feature)', async () => {
    const fx = await tinyKg();
    const deps = { snapshot: fx.snapshot, embedder: fx.embedder, featureIndex: fx.featureIndex };
    const measured: InputFinding = { ...f('rash'), measured: { analyte: 'x', loinc: '1-1', value: 1, unit: 'u' } };
    const out = await matchFeatures(deps, { findings: [measured], topM: 2, threshold: 0.5 });
    assert.deepEqual(out.matches.map((m) => m.featureText), ['rash']);
  });

  it('matches coded findings exactly without embedding them', async () => {
    const fx = await tinyKg();
    const kg = { ...fx.snapshot };
    const snapshot = buildSnapshot({
      categories: kg.categories, subcategories: kg.subcategories, diseases: kg.diseases,
      features: kg.features.map((x, i) => (i === 0 ? { ...x, code: 'E_91', valueCode: null } : x)),
      manifestations: [],
    });
    const embedder = { id: 'x', embeddings: { embedDocuments: async (): Promise<number[][]> => assert.fail('embedder called') } };
    const out = await matchFeatures({ snapshot, embedder, featureIndex: fx.featureIndex }, { findings: [{ text: 'E_91', polarity: 'absent', code: 'E_91', valueCode: null }], topM: 3, threshold: 0.5 });
    assert.deepEqual(out.matches.map((m) => [m.featureId, m.similarity, m.polarity]), [[snapshot.features[0]!.id, 1, 'absent']]);
  });
});

describe('query: vote subcategory (eq. 12-13)', () => {
  const m = (featureId: string, polarity: 'present' | 'absent' = 'present'): FeatureMatch => ({ findingIndex: 0, featureId, featureText: '', similarity: 1, polarity });

  it('a feature shared by two subcategories splits its vote; the winner has most votes', async () => {
    const { snapshot } = await tinyKg();
    const id = (t: string) => snapshot.features.find((x) => x.text === t)!.id;
    const out = voteSubcategory(snapshot, { matches: [m(id('fever')), m(id('chest pain')), m(id('sweating'))], candidates: 1 });
    assert.deepEqual(out.votes.map((v) => [v.name, v.votes]), [['cardiac', 2.5], ['respiratory', 0.5]]);
    assert.equal(out.winner?.name, 'cardiac');
    assert.equal(out.candidates.length, 1);
  });

  it('absent findings do not vote and a feature matched twice votes once', async () => {
    const { snapshot } = await tinyKg();
    const id = (t: string) => snapshot.features.find((x) => x.text === t)!.id;
    const out = voteSubcategory(snapshot, { matches: [m(id('cough')), m(id('cough')), m(id('chest pain'), 'absent')], candidates: 3 });
    assert.deepEqual(out.votes.map((v) => [v.name, v.votes]), [['respiratory', 1]]);
  });

  it('no matches: no winner', async () => {
    const { snapshot } = await tinyKg();
    assert.equal(voteSubcategory(snapshot, { matches: [], candidates: 3 }).winner, null);
  });
});
