import assert from 'node:assert/strict';
import type { FeatureNode } from '../../src/domain/kg.js';
import type { PhraseEmbedder } from '../../src/clinical-text/concepts/embed-forms.js';
import type { ConceptLexicon, LexiconEvidence } from '../../src/clinical-text/concepts/types.js';
import { decompose } from '../../src/clinical-text/decompose.js';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import { saysRelief } from '../../src/clinical-text/concepts/emergent-phrases.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * What eases a finding is no finding: the embedding fallback does not read "goes back when lying
 * down" as "worse when lying down", nor "bearing down ... stops it" as "always on the toilet"
 * (codes KG dev-e, session 22). Only a form that itself says relief may read such a phrase.
 */
const ev = (canonical: string, forms: string[]): LexiconEvidence => ({ canonical, forms, abbreviations: [], absentForms: [], context: 'patient', triggers: [], valueSet: null, values: {}, scale: null });
const lexicon: ConceptLexicon = { version: 1, provenance: 'test fixture', sites: {}, evidences: { E_1: ev('worse lying down', ['worse when lying down']) } };
const node = (id: string, code: string): FeatureNode => ({ id, text: code, kind: 'ehr', code, valueCode: null, question: null, valueText: null, antecedent: null });
const snapshot = buildSnapshot({ categories: [], subcategories: [], diseases: [], features: [node('feat:e1', 'E_1')], manifestations: [] });
// Every phrase lands on the one form: the guard, not the distance, must refuse.
const near: PhraseEmbedder = { id: 'always-near', embedVectors: (texts) => texts.map(() => Float32Array.from([1, 0])) };
const read = (text: string) => {
  const { findings } = decompose({ text, findings: [] });
  const m = matchConcepts({ snapshot, lexicon, phraseEmbedder: near }, { findings, text });
  return findings.map((f, i) => `${f.text}: ${(m.get(i) ?? []).map((x) => x.featureText).join(',')}`);
};

describe('embedding fallback: a relief is no finding', () => {
  it('saysRelief: relief cues, "goes/pops back", "stops (it)" at the end; a denied cue is none', () => {
    for (const t of ['goes back when lying down', 'pops back in', 'better with rest', 'on the toilet sometimes stops', 'stops it']) assert.ok(saysRelief(t), t);
    for (const t of ['not relieved by rest', 'back pain', 'it stops me sleeping', 'lying down']) assert.ok(!saysRelief(t), t);
  });

  it('a phrase with its relief cue before it is not read by a neighbour; without one it is', () => {
    assert.deepEqual(read('lump that appears when lifting and goes back when lying flat'), ['lump that appears when lifting: E_1', 'when lying flat: ']);
    assert.deepEqual(read('breathless when lying flat'), ['breathless when lying flat: E_1']);
  });
});
