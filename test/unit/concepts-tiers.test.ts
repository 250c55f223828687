import assert from 'node:assert/strict';
import { buildConceptIndex, conceptIndexFor } from '../../src/clinical-text/concepts/concept-index.js';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import { EMERGENT_VOCABULARY, snapshotTiers, tierOf } from '../../src/clinical-text/concepts/tiers.js';
import type { FeatureNode } from '../../src/domain/kg.js';
import { decompose } from '../../src/clinical-text/decompose.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * Concept tiers (issue 24): a finding is read by the build's coded concepts first, then a
 * phenotype vocabulary (HPO), then emergent concepts; an earlier tier that reads it wins.
 * Free text goes through the real analysis (decompose) and the real matcher, no lexicon, no embedder.
 */
const feature = (id: string, text: string, more: Partial<FeatureNode> = {}): FeatureNode => ({
  id, text, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null, ...more,
});

const CODED = feature('feat:x1', 'fever', { code: 'X1' });
const HPO_FEVER = feature('feat:hpo-fever', 'Fever', { code: 'HP:0001945', vocabulary: 'HPO', forms: ['Fever', 'Pyrexia'] });
const HPO_REBOUND = feature('feat:hpo-rebound', 'Rebound tenderness', { code: 'HP:0031453', vocabulary: 'HPO', forms: ['Rebound tenderness'] });
const EMERGENT = feature('feat:guarding', 'guarding', { vocabulary: 'emergent', forms: ['guarding'] });

const snapshotOf = (features: FeatureNode[]): KgSnapshot => buildSnapshot({ categories: [], subcategories: [], diseases: [], features, manifestations: [] });
const snapshot = snapshotOf([CODED, HPO_FEVER, HPO_REBOUND, EMERGENT]);

/** Each finding of the text as "featureId polarity" (sorted), through decompose and the tiered matcher. */
function read(text: string, s: KgSnapshot = snapshot): string[][] {
  const { findings } = decompose({ text, findings: [] });
  const out = matchConcepts({ snapshot: s, lexicon: null, phraseEmbedder: null }, { findings, text });
  return findings.map((_, i) => (out.get(i) ?? []).map((m) => `${m.featureId} ${m.polarity}`).sort());
}

describe('concepts tiers: coded, then phenotype, then emergent', () => {
  it('tierOf: no vocabulary is coded, HPO phenotype, "emergent" emergent, any other vocabulary coded', () => {
    assert.equal(tierOf(CODED), 'coded');
    assert.equal(tierOf(HPO_FEVER), 'phenotype');
    assert.equal(tierOf(EMERGENT), 'emergent');
    assert.equal(EMERGENT_VOCABULARY, 'emergent');
    assert.equal(tierOf({ vocabulary: 'DDXPlus' }), 'coded');
    assert.equal(tierOf({ vocabulary: null }), 'coded');
  });

  it('snapshotTiers lists the tiers present in reading order, coded always first', () => {
    assert.deepEqual(snapshotTiers(snapshot), ['coded', 'phenotype', 'emergent']);
    // Feature order in the snapshot does not change the reading order.
    assert.deepEqual(snapshotTiers(snapshotOf([EMERGENT, HPO_REBOUND, CODED])), ['coded', 'phenotype', 'emergent']);
    assert.deepEqual(snapshotTiers(snapshotOf([CODED])), ['coded']);
    assert.deepEqual(snapshotTiers(snapshotOf([CODED, HPO_FEVER])), ['coded', 'phenotype']);
    assert.deepEqual(snapshotTiers(snapshotOf([EMERGENT])), ['coded', 'emergent']);
    assert.deepEqual(snapshotTiers(snapshotOf([])), ['coded']);
  });

  it('"fever" reads the coded feature only: the earlier tier wins over the HPO concept of the same name', () => {
    assert.deepEqual(read('fever'), [['feat:x1 present']]);
  });

  it('without the coded feature, "fever" reads the HPO concept', () => {
    assert.deepEqual(read('fever', snapshotOf([HPO_FEVER, EMERGENT])), [['feat:hpo-fever present']]);
  });

  it('"pyrexia" (an HPO synonym only) reads the HPO concept', () => {
    assert.deepEqual(read('pyrexia'), [['feat:hpo-fever present']]);
  });

  it('"rebound tenderness" reads the second HPO concept', () => {
    assert.deepEqual(read('rebound tenderness'), [['feat:hpo-rebound present']]);
  });

  it('"guarding" reads the emergent concept, "no guarding" the same concept as absent', () => {
    assert.deepEqual(read('guarding'), [['feat:guarding present']]);
    assert.deepEqual(read('no guarding'), [['feat:guarding absent']]);
  });

  it('one text reads each finding at its own tier', () => {
    assert.deepEqual(read('pyrexia and guarding, no rebound tenderness'), [['feat:hpo-fever present'], ['feat:guarding present'], ['feat:hpo-rebound absent']]);
  });

  it("an emergent concept is not read from a relative's or an uncertain finding, nor from an unknown word", () => {
    assert.deepEqual(read('mother had guarding').flat(), []);
    assert.deepEqual(read('possible guarding').flat(), []);
    assert.deepEqual(read('wheezing').flat(), []);
  });

  it("a snapshot of coded features only has one concept index: 'all' is the 'coded' object", () => {
    const coded = snapshotOf([CODED, feature('feat:x2', 'cough', { code: 'X2' })]);
    const c = conceptIndexFor(coded, null, 'coded');
    assert.equal(conceptIndexFor(coded, null, 'all'), c);
    assert.equal(conceptIndexFor(coded, null), c, 'the default tier is coded');
    assert.equal(conceptIndexFor(coded, null, 'coded'), c, 'cached');
  });

  it("a tiered snapshot keeps 'all' apart from 'coded', and each tier's index holds only its own features", () => {
    const all = conceptIndexFor(snapshot, null, 'all');
    const coded = conceptIndexFor(snapshot, null, 'coded');
    assert.notEqual(all, coded);
    const featuresOf = (tier: 'coded' | 'phenotype' | 'all') => new Set(buildConceptIndex(snapshot, null, tier).entries.flatMap((e) => (e.target.kind === 'feature' ? [snapshot.features[e.target.feature]!.id] : [])));
    assert.deepEqual([...featuresOf('coded')], ['feat:x1']);
    assert.deepEqual([...featuresOf('phenotype')].sort(), ['feat:hpo-fever', 'feat:hpo-rebound']);
    assert.deepEqual([...featuresOf('all')].sort(), ['feat:guarding', 'feat:hpo-fever', 'feat:hpo-rebound', 'feat:x1']);
  });
});
