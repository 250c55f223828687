import assert from 'node:assert/strict';
import { tokenize } from '../../src/clinical-text/concepts/normalize.js';
import { slashedWords } from '../../src/clinical-text/slashed-words.js';

/** Slash-joined words are a list for both tokenizers (the analysis's and the concept layer's). */
describe('clinical-text slashed-words', () => {
  it('splits a list of words, keeps shorthand, "and/or" and rates whole', () => {
    assert.deepEqual(slashedWords('pain/swelling'), [{ word: 'pain', at: 0 }, { word: 'swelling', at: 5 }]);
    assert.deepEqual(slashedWords('hot/red/swollen')?.map((w) => w.word), ['hot', 'red', 'swollen']);
    for (const whole of ['N/V', 'h/o', 's/p', 'mg/dL', 'and/or', 'drinks/day', 'beers/night', 'pain']) assert.equal(slashedWords(whole), null, whole);
  });

  it('the concept tokenizer reads the list word by word, offsets into the original text', () => {
    const t = tokenize('red/swollen ankle, n/v');
    assert.deepEqual(t.map((x) => [x.norm, x.start, x.end]), [['red', 0, 3], ['swollen', 4, 11], ['ankle', 12, 17], ['n/v', 19, 22]]);
  });
});
