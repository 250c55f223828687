import assert from 'node:assert/strict';
import { matchConcepts } from '../../../../src/clinical-text/concepts/match-concepts.js';
import { compileNotThisConcept, notForEmbedding, notThisConceptSpans, withoutNotThisConcept } from '../../../../src/clinical-text/concepts/not-this-concept.js';
import { tokenize } from '../../../../src/clinical-text/concepts/normalize.js';
import { decompose } from '../../../../src/clinical-text/decompose.js';
import { loadHpo } from '../../../../src/vocabularies/load-hpo.js';
import { noteVocabularies } from '../../../../kg-build/note-vocabularies.js';
import { shippedDdxplusVocabulary } from '../../../support/ddxplus-vocabulary.js';
import { loadDdxplusDictionary } from '../../../../src/sources/ddxplus/dictionary.js';

/**
 * A longer phrase that names another concept, or none, blocks the shorter word inside it (issue 47):
 * sentences written for this test in the style of real notes' exam, ECG and imaging lines.
 */
describe('not this concept: the engine', () => {
  const rules = compileNotThisConcept({ version: 1, provenance: 'test', phrases: [{ phrases: ['st depression', 'jugular venous distension'], names: null, not: 'depression' }], alone: ['heart'] });
  const mention = (at: number[], form: string) => ({ at, entry: { form } });

  it('finds a phrase word by word as written, stopwords skipped', () => {
    assert.deepEqual(notThisConceptSpans(tokenize('EKG with ST depression in V5'), rules), [[2, 3]]);
    assert.deepEqual(notThisConceptSpans(tokenize('history of depression'), rules), []);
  });

  it('drops a mention inside the phrase, keeps the phrase itself and mentions outside it', () => {
    const tokens = tokenize('EKG with ST depression in V5');
    const kept = withoutNotThisConcept(tokens, [mention([3], 'depression'), mention([2, 3], 'ST depression'), mention([0], 'ekg')], rules);
    assert.deepEqual(kept.map((m) => m.entry.form), ['ST depression', 'ekg']);
  });

  it('a finding holding such a phrase, or a body part alone, is not for the embedding fallback', () => {
    assert.equal(notForEmbedding('Jugular venous distension to the jaw', rules), true);
    assert.equal(notForEmbedding('Heart', rules), true);
    assert.equal(notForEmbedding('heart racing', rules), false);
  });
});

describe('not this concept: the shipped phrases over DDXPlus and HPO', () => {
  let read: (text: string) => string[];
  let readCoded: (text: string) => string[];
  before(async function () {
    this.timeout(60_000);
    const hpo = await loadHpo();
    assert.ok(hpo.ok, 'the HPO release installed by npm run setup');
    const { lexicon, vocab: coded } = await shippedDdxplusVocabulary();
    const vocab = noteVocabularies({ ddxplus: await loadDdxplusDictionary('datasets/ddxplus'), lexicon, phenotypes: [hpo.value] });
    const reader = (v: typeof vocab) => (text: string) => {
      const { findings } = decompose({ text, findings: [] });
      const m = matchConcepts({ snapshot: v.snapshot, lexicon: v.lexicon, phraseEmbedder: null }, { findings, text });
      return [...m.values()].flat().map((x) => `${x.polarity === 'absent' ? '-' : '+'}${x.featureText}`);
    };
    read = reader(vocab);
    readCoded = reader(coded);
  });
  const has = (got: string[], re: RegExp) => assert.ok(got.some((x) => re.test(x)), got.join(' | '));
  const lacks = (got: string[], re: RegExp) => assert.ok(!got.some((x) => re.test(x)), got.join(' | '));

  it('jugular venous distension and JVD are the raised JVP, no abdominal distension', () => {
    const got = read('Neck: JVD to the angle of the jaw. Jugular venous distension at 45 degrees.');
    has(got, /^\+Elevated jugular venous pressure$/);
    lacks(got, /bloated|distended/);
    lacks(readCoded('Jugular venous distension at 45 degrees.'), /bloated|distended/);
  });

  it('ST depression is the ECG sign, no history of depression; depression alone still is', () => {
    const got = read('EKG: 2 mm ST depression in V4 through V6.');
    has(got, /^\+ST segment depression$/);
    lacks(got, /diagnosed with depression/);
    has(read('History of depression, on sertraline.'), /diagnosed with depression/);
  });

  it('a cavitary lesion on the chest film is a lung cavity, no skin lesion', () => {
    const got = read('CXR: cavitary lesion in the right upper lobe.');
    has(got, /^\+Pulmonary cavity$/);
    lacks(got, /lesions, redness or problems on your skin/);
    lacks(readCoded('CT chest: 3 cm cavitary lesion, left upper lobe.'), /skin/);
  });

  it('pacing, dullness to percussion and a bulging TM are not premature atrial contractions, lethargy or a swelling', () => {
    lacks(read('Atrial pacing spikes on the monitor.'), /Premature atrial contractions/);
    lacks(read('Dullness to percussion at the left base.'), /Lethargy/);
    const ear = read('Right TM: bulging tympanic membrane, erythematous.');
    has(ear, /^\+Tympanic membrane bulging$/);
    lacks(ear, /swelling in one or more areas/);
  });
});
