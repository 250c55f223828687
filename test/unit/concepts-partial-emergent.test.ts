import assert from 'node:assert/strict';
import type { FeatureNode } from '../../src/domain/kg.js';
import { decompose } from '../../src/clinical-text/decompose.js';
import { matchConcepts, unknownWords } from '../../src/clinical-text/concepts/match-concepts.js';
import { readNotes } from '../../src/clinical-text/read-notes.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * Issue 24: a finding a vocabulary read keeps the words none of them knows ("photosensitive malar
 * rash" is a rash, and "photosensitive", "malar" still say something), at build time as candidate
 * emergent phrases and at query time as the emergent concepts they formed.
 */
const node = (id: string, text: string, extra: Partial<FeatureNode> = {}): FeatureNode => ({ id, text, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null, ...extra });
const sets = (withEmergent: boolean) => buildSnapshot({
  categories: [], subcategories: [], diseases: [],
  features: [node('feat:rash', 'rash', { code: 'R1' }), ...(withEmergent ? [node('feat:malar', 'malar', { vocabulary: 'emergent', forms: ['malar'] })] : [])],
  manifestations: [],
});
const read = (text: string, withEmergent: boolean) => {
  const { findings } = decompose({ text, findings: [] });
  const m = matchConcepts({ snapshot: sets(withEmergent), lexicon: null, phraseEmbedder: null }, { findings, text });
  return [...m.values()].flat().map((x) => x.featureText).sort();
};

describe('words no vocabulary knows, in a finding a vocabulary read (issue 24)', () => {
  it('only words no dictionary tier knows are unknown', () => {
    const unknown = unknownWords(sets(false), null);
    assert.equal(unknown('rash'), false);
    assert.equal(unknown('malar'), true);
  });
  it('the build counts them as candidate emergent phrases beside the concept read', () => {
    const r = readNotes([{ origin: 'test', title: null, text: 'Photosensitive malar rash.' }], { vocabulary: sets(false), lexicon: null, prepare: (text) => ({ text, leftOut: {}, scrubbed: {} }) });
    assert.deepEqual(r.findings.map((f) => f.text), ['rash']);
    assert.deepEqual(r.candidates.map((c) => c.key).sort(), ['malar', 'photosensitiv', 'photosensitiv malar']);
  });
  it('the query reads them as the emergent concept they formed, and nothing more without one', () => {
    assert.deepEqual(read('Photosensitive malar rash.', true), ['malar', 'rash']);
    assert.deepEqual(read('Photosensitive malar rash.', false), ['rash']);
  });
});
