import { strict as assert } from 'node:assert';
import { buildConceptIndex } from '../../src/clinical-text/concepts/concept-index.js';
import { deriveForms } from '../../src/clinical-text/concepts/derive-forms.js';
import { editDistance, stem, tokenize } from '../../src/clinical-text/concepts/normalize.js';
import { resolveFeatures } from '../../src/clinical-text/concepts/resolve-features.js';
import { confusedFor, crossesOpposites, inflectionOf, isRealWord } from '../../src/clinical-text/concepts/real-words.js';
import type { InputFinding } from '../../src/query/contracts.js';
import { miniLexicon, miniSnapshot } from '../support/concept-fixture.js';

const snapshot = miniSnapshot();
const index = buildConceptIndex(snapshot, miniLexicon);

/** Feature texts a finding resolves to, with polarity ("+fever", "-cough"). */
function resolve(text: string, attrs: Partial<InputFinding> = {}, clause = ''): string[] {
  const finding: InputFinding = { text, polarity: 'present', code: null, valueCode: null, ...attrs };
  return resolveFeatures(index, { finding, tokens: tokenize(text), clauseTokens: tokenize(clause) })
    .map((m) => `${m.polarity === 'present' ? '+' : '-'}${snapshot.features[m.feature]!.text}`)
    .sort();
}

describe('concept layer: lexicon lookup', () => {
  it('maps canonical phrases, synonyms, lay wording and stems to the concept', () => {
    assert.deepEqual(resolve('fever'), ['+fever']);
    assert.deepEqual(resolve('pyrexia'), ['+fever']);
    assert.deepEqual(resolve('coughing a lot'), ['+cough']);
    assert.deepEqual(resolve("I can't catch my breath"), ['+dyspnea']);
    assert.deepEqual(resolve('diaphoretic'), ['+sweating']);
  });

  it('a treatment names its condition when present and denies nothing when absent ("we don\'t have an epipen")', () => {
    assert.deepEqual(resolve('carries an epipen'), ['+food allergy']);
    assert.deepEqual(resolve('epipen', { polarity: 'absent' }), []);
    assert.deepEqual(resolve('food allergy', { polarity: 'absent' }), ['-food allergy']);
  });

  it('matches abbreviations case-sensitively', () => {
    assert.deepEqual(resolve('SOB'), ['+dyspnea']);
    assert.deepEqual(resolve('sob'), []);
  });

  it('tolerates one typo in a longer word, never in short words or the first letter', () => {
    assert.deepEqual(resolve('feaver'), ['+fever']);
    assert.deepEqual(resolve('coughin'), ['+cough']);
    assert.deepEqual(resolve('crushing'), []); // no pain head word: not a pain character, and not "cough"
  });

  it('never "corrects" a word spelled right into another (real-words.ts): "couch" is no cough, "bilat" no bloating', () => {
    assert.deepEqual(resolve('couch'), []);
    assert.deepEqual(resolve('lying on the couch'), []);
    assert.deepEqual(resolve('feaver'), ['+fever'], 'a misspelling is still corrected');
    assert.ok(isRealWord('older') && isRealWord('prostate') && isRealWord('bilat') && isRealWord('wasnt'));
    assert.ok(!isRealWord('feaver') && !isRealWord('swolen') && !isRealWord('breth'));
    assert.ok(inflectionOf('squeaking', 'squeaky') && inflectionOf('purulence', 'purulent'));
    assert.ok(!inflectionOf('prostate', 'prostrated') && !inflectionOf('reflex', 'reflux') && !inflectionOf('couch', 'cough'));
    assert.ok(crossesOpposites('hypotension', 'hypertension') && crossesOpposites('tachycardia', 'bradycardia') && !crossesOpposites('feaver', 'fever'));
    // A real word written often for another is read as that one only.
    assert.equal(confusedFor('hart'), 'heart');
    assert.equal(confusedFor('couch'), null);
    assert.notDeepEqual(resolve('heart attack'), []);
    assert.deepEqual(resolve('hart attack'), resolve('heart attack'));
  });

  it('prefers the longest concept ("former smoker" over "smoker")', () => {
    assert.deepEqual(resolve('former smoker'), ['+former smoker']);
    assert.deepEqual(resolve('smoker'), ['+smokes']);
  });

  it('turns single-word negatives into absent findings', () => {
    assert.deepEqual(resolve('afebrile'), ['-fever']);
  });

  it('keeps the finding polarity', () => {
    assert.deepEqual(resolve('cough', { polarity: 'absent', assertion: 'absent' }), ['-cough']);
  });
});

describe('concept layer: values, sites and context', () => {
  it('reads pain character values only next to a pain head word', () => {
    assert.deepEqual(resolve('sharp chest pain'), ['+pain', '+pain character: sharp', '+pain location: lower chest', '+pain location: upper chest']);
    assert.deepEqual(resolve('crushing CP'), ['+pain', '+pain character: heavy']);
  });

  it('attaches a site after "radiating to" to the radiation question, with the side', () => {
    assert.deepEqual(resolve('radiating to L arm'), ['+pain radiates to: biceps(L)']);
    assert.deepEqual(resolve('radiating to left arm'), ['+pain radiates to: biceps(L)']);
    assert.deepEqual(resolve('radiates to arm'), ['+pain radiates to: biceps(L)', '+pain radiates to: biceps(R)']);
  });

  it('uses the side the text analysis extracted and the clause for the head word', () => {
    assert.deepEqual(resolve('ear pain', { values: { side: 'R' } }), ['+pain', '+pain location: ear(R)']);
    assert.deepEqual(resolve('the left ear', {}, 'pain in the left ear'), ['+pain location: ear(L)']);
  });

  it('reads a 0-10 intensity into the pain scale', () => {
    assert.ok(resolve('chest pain 7/10', { values: { intensity: 7 } }).includes('+pain intensity (0-10): 7'));
  });

  it('lets family findings reach only family-history concepts', () => {
    assert.deepEqual(resolve('MI', { experiencer: 'family' }), ['+family MI']);
    assert.deepEqual(resolve('fever', { experiencer: 'family' }), []);
  });

  it('drops hypothetical and uncertain findings', () => {
    assert.deepEqual(resolve('fever', { assertion: 'hypothetical' }), []);
    assert.deepEqual(resolve('fever', { assertion: 'possible' }), []);
  });

  it('gives features outside the lexicon forms from their own labels', () => {
    assert.deepEqual(resolve('rash on my arms'), ['+Do you have a rash?']);
  });
});

describe('concept layer: helpers', () => {
  it('stems consistently and measures edit distance with transpositions', () => {
    assert.equal(stem('wheezes'), stem('wheeze'));
    assert.equal(stem('coughing'), 'cough');
    assert.equal(editDistance('fevre', 'fever', 2), 1);
    assert.equal(editDistance('abcdef', 'uvwxyz', 2), 3);
  });

  it('derives short forms from labels, never whole question sentences', () => {
    assert.deepEqual(deriveForms({ text: 'pain character: sharp', question: null, valueText: null }), ['sharp pain character']);
    assert.deepEqual(deriveForms({ text: 'Do you have a cough? yes', question: 'Do you have a cough?', valueText: 'yes' }), ['cough']);
  });
});

describe('concept layer: spelled as it sounds', () => {
  it('matches lay misspellings by Double Metaphone within an edit budget', async () => {
    const { phoneticIndex, soundsLike } = await import('../../src/clinical-text/concepts/sounds-like.js');
    const idx = phoneticIndex(['cough', 'hoarse', 'diarrhea', 'fever', 'rash', 'sweat']);
    assert.deepEqual(soundsLike(idx, 'horse'), ['hoarse']);
    assert.deepEqual(soundsLike(idx, 'diarea'), ['diarrhea']);
    assert.deepEqual(soundsLike(idx, 'swet'), ['sweat']);
    assert.deepEqual(soundsLike(idx, 'rush'), [], 'a real word one vowel away is another word');
    assert.deepEqual(soundsLike(idx, 'cuff'), [], 'too far in spelling');
    assert.deepEqual(soundsLike(idx, 'xylophone'), []);
    // Four letters allow one edit: "grew" sounds like "crow" but is two edits away, and a word.
    assert.deepEqual(soundsLike(phoneticIndex(['crow']), 'grew'), []);
    // A written word can stand for the stem it was cut to ("tired" → "tir").
    assert.deepEqual(soundsLike(phoneticIndex([{ word: 'tired', stem: 'tir' }]), 'tierd'), ['tir']);
  });

  it('reads a misspelling the edit rule cannot reach through the lexicon', () => {
    assert.deepEqual(resolve('diaphoretik'), ['+sweating']);
  });
});
