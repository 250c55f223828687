import assert from 'node:assert/strict';
import type { FeatureNode } from '../../src/domain/kg.js';
import type { PhraseEmbedder } from '../../src/clinical-text/concepts/embed-forms.js';
import type { ConceptLexicon, LexiconEvidence } from '../../src/clinical-text/concepts/types.js';
import { decompose } from '../../src/clinical-text/decompose.js';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import { lexiconConceptSet } from '../../src/clinical-text/concepts/lexicon-concept-set.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * A query finding that names a lexicon concept the KG lacks is that concept, as the build would
 * have read it (it reads notes with every lexicon concept): not an emergent concept formed from
 * other notes' words ("energy drinks" is no "drinking" of alcohol), nor an embedding neighbour.
 */
const ev = (canonical: string, forms: string[]): LexiconEvidence => ({ canonical, forms, abbreviations: [], absentForms: [], context: 'patient', triggers: [], valueSet: null, values: {}, scale: null });
const lexicon: ConceptLexicon = { version: 1, provenance: 'test fixture', sites: {}, evidences: { E_1: ev('coffee', ['coffee']), E_2: ev('energy drinks', ['energy drinks']) } };
const node = (id: string, text: string, extra: Partial<FeatureNode> = {}): FeatureNode => ({ id, text, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null, ...extra });
// The KG's notes said coffee and "drinking" (of alcohol); none said energy drinks.
const snapshot = buildSnapshot({
  categories: [], subcategories: [], diseases: [],
  features: [node('feat:coffee', 'coffee', { code: 'E_1' }), node('feat:drinking', 'drinking', { vocabulary: 'emergent', forms: ['drinking'] }), node('feat:tired', 'tired', { vocabulary: 'emergent', forms: ['tired'] })],
  manifestations: [],
});
// Every phrase lands on "drinking": the fallback would take it if it were asked.
const nearDrinking: PhraseEmbedder = { id: 'always-drinking', embedVectors: (texts) => texts.map(() => Float32Array.from([1, 0])) };
const read = (text: string, lex: ConceptLexicon | null) => {
  const { findings } = decompose({ text, findings: [] });
  const m = matchConcepts({ snapshot, lexicon: lex, phraseEmbedder: nearDrinking }, { findings, text });
  return findings.map((f, i) => `${f.text}: ${(m.get(i) ?? []).map((x) => x.featureText).sort().join(',')}`);
};

describe('concept layer: a finding naming a lexicon concept the KG lacks', () => {
  it('the lexicon concept set holds every evidence the lexicon names', () => {
    const set = lexiconConceptSet(lexicon);
    assert.deepEqual(set.features.map((f) => f.code).sort(), ['E_1', 'E_2']);
    assert.equal(lexiconConceptSet(lexicon), set, 'built once per lexicon');
  });

  it('is read as nothing rather than as an emergent concept of its words', () => {
    assert.deepEqual(read('energy drinks', lexicon), ['energy drinks: ']);
    // Without the lexicon the words are unknown and "drinks" meets the emergent "drinking".
    assert.deepEqual(read('energy drinks', null), ['energy drinks: drinking']);
  });

  it('its words no vocabulary knows still read as the emergent concepts they formed', () => {
    assert.deepEqual(read('energy drinks, always tired', lexicon), ['energy drinks: ', 'always tired: tired']);
    assert.deepEqual(read('energy drinks tired', lexicon), ['energy drinks tired: tired']);
  });

  it('a concept the KG holds is read as before', () => {
    assert.deepEqual(read('coffee', lexicon), ['coffee: coffee']);
  });
});
