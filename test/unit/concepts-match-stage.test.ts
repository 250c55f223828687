import { strict as assert } from 'node:assert';
import type { PhraseEmbedder } from '../../src/clinical-text/concepts/embed-forms.js';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import type { ConceptLexicon, LexiconEvidence } from '../../src/clinical-text/concepts/types.js';
import type { FeatureNode } from '../../src/domain/kg.js';
import type { InputFinding } from '../../src/query/contracts.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * The concept layer as a matching stage, across findings: what one finding's reading does to
 * another's in the same clause, and what the embedding fallback may land on. The embedder is a
 * deterministic bag of words that, like static word vectors, barely registers "no".
 */
const ev = (canonical: string, more: Partial<LexiconEvidence> = {}): LexiconEvidence => ({
  canonical, forms: [], abbreviations: [], absentForms: [], context: 'patient', triggers: [], valueSet: null, values: {}, scale: null, ...more,
});

const lexicon: ConceptLexicon = {
  version: 1,
  provenance: 'test fixture',
  sites: {},
  evidences: {
    E_209: ev('vaccinations up to date', { forms: ['vaccinated', 'shots up to date'], context: 'history' }),
    E_115: ev('unprotected sex', { forms: ['no condoms'], context: 'exposure' }),
    E_201: ev('cough', { forms: ['coughing'] }),
    E_167: ev('pregnant', { forms: ['expecting a baby'] }),
    E_55: ev('symptoms more prominent at night', { forms: ['worse in the evening'] }),
  },
};

const features: FeatureNode[] = ['E_209', 'E_115', 'E_201', 'E_167', 'E_55'].map((code) => ({ id: `feat:${code}`, text: code, kind: 'ehr', code, valueCode: null, question: null, valueText: null, antecedent: null }));
const snapshot = buildSnapshot({
  categories: [{ id: 'cat:c', name: 'C' }],
  subcategories: [{ id: 'sub:s', name: 'S', categoryId: 'cat:c' }],
  diseases: [{ id: 'dis:d', name: 'D', subcategoryId: 'sub:s', icd10: null, recordCount: 1, aliases: ['D'] }],
  features,
  manifestations: features.map((f) => ({ diseaseId: 'dis:d', featureId: f.id, prevalence: 1, count: 1, source: 'ehr' as const })),
});

const VOCAB = ['vaccinations', 'vaccinated', 'shots', 'up', 'date', 'condom', 'condoms', 'sex', 'unprotected', 'cough', 'coughing', 'no', 'baby', 'expecting', 'worse', 'evening'];
const bagOfWords: PhraseEmbedder = {
  id: 'bag-of-words',
  embedVectors: (texts) => texts.map((t) => {
    const v = new Float32Array(VOCAB.length);
    for (const w of t.toLowerCase().split(/[^a-z]+/)) {
      const i = VOCAB.indexOf(w.replace(/s$/, '')) >= 0 ? VOCAB.indexOf(w.replace(/s$/, '')) : VOCAB.indexOf(w);
      if (i >= 0) v[i]! += w === 'no' ? 0.1 : 1;
    }
    // "vaccinations" and "vaccinated" are near neighbours, as in a real model.
    v[0] = v[1] = Math.max(v[0]!, v[1]!);
    const n = Math.hypot(...v) || 1;
    return v.map((x) => x / n);
  }),
};

const finding = (text: string, polarity: 'present' | 'absent', clause: { start: number; end: number }): InputFinding => ({ text, polarity, code: null, valueCode: null, clause });

/** "feature polarity" per finding index. */
function read(findings: InputFinding[]): string[][] {
  const out = matchConcepts({ snapshot, lexicon, phraseEmbedder: bagOfWords }, { findings, text: null });
  return findings.map((_, i) => (out.get(i) ?? []).map((m) => `${m.featureText} ${m.polarity}`));
}

describe('concept layer: the matching stage across findings', () => {
  it('a subject and its negated predicate naming one concept in one clause read as the negation ("Vaccinations not up to date")', () => {
    const clause = { start: 0, end: 28 };
    assert.deepEqual(read([finding('Vaccinations', 'present', clause), finding('shots up to date', 'absent', clause)]), [[], ['E_209 absent']]);
  });

  it('in different clauses both readings stay (the reasoner lets present win)', () => {
    assert.deepEqual(read([finding('Vaccinations', 'present', { start: 0, end: 12 }), finding('shots up to date', 'absent', { start: 14, end: 30 })]), [['E_209 present'], ['E_209 absent']]);
  });

  it('the embedding fallback never lands on a form whose meaning turns on a negation ("condom" is not "no condoms")', () => {
    assert.deepEqual(read([finding('condom use', 'present', { start: 0, end: 10 })]), [[]]);
    // The dictionary still reads the form itself.
    assert.deepEqual(read([finding('no condoms', 'present', { start: 0, end: 10 })]), [['E_115 present']]);
  });

  it('a phrase without a real word gets no embedding reading ("TB" landed on "tingly")', () => {
    // "sex" alone is near "unprotected sex" (cosine 0.71), but three letters carry too little.
    assert.deepEqual(read([finding('sex', 'present', { start: 0, end: 3 })]), [[]]);
  });

  it('words that only say who the patient is get no embedding reading ("baby" landed on "expecting a baby")', () => {
    assert.deepEqual(read([finding('baby', 'present', { start: 0, end: 4 })]), [[]]);
    assert.deepEqual(read([finding('expecting baby', 'present', { start: 0, end: 14 })]), [['E_167 present']]);
  });

  it('a qualifier alone names no finding and gets no embedding reading ("getting worse" landed on "worse in the evening")', () => {
    // "worse" alone is near "worse in the evening" (cosine 0.71), as "sex" is near "unprotected sex".
    assert.deepEqual(read([finding('getting worse', 'present', { start: 0, end: 13 })]), [[]]);
    assert.deepEqual(read([finding('worse evenings', 'present', { start: 0, end: 14 })]), [['E_55 present']]);
  });

  it('one word alone needs a closer neighbour than a phrase ("otorrhea" landed on "sialorrhea")', () => {
    // "expecting" is near "expecting a baby" at cosine 0.71: enough for a phrase, not for one word.
    assert.deepEqual(read([finding('expecting', 'present', { start: 0, end: 9 })]), [[]]);
    assert.deepEqual(read([finding('expecting soon', 'present', { start: 0, end: 14 })]), [['E_167 present']]);
  });
});
