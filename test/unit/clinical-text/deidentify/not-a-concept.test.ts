import { strict as assert } from 'node:assert';
import { emergentPhrases, NO_FINDING_ALONE } from '../../../../src/clinical-text/concepts/emergent-phrases.js';
import { isProperNoun } from '../../../../src/clinical-text/concepts/not-a-concept.js';
import { tokenize } from '../../../../src/clinical-text/concepts/normalize.js';

/**
 * Issue 47 item 6: an emergent concept is never a proper noun or an identifier, while eponyms stay
 * findings. Phrases are the candidate keys a finding no vocabulary read gives the build.
 */
const keys = (text: string) => emergentPhrases({ text, assertion: 'present', experiencer: 'patient' }).map((p) => p.key);
const words = (text: string) => new Set(keys(text).flatMap((k) => k.split(' ')));

describe('clinical text: what is never an emergent concept (issue 47)', () => {
  it('a capitalised word inside a sentence that is no English word is a name, not a candidate', () => {
    assert.ok(!words('seen at Barnabas for a productive cough').has('barnaba'), keys('seen at Barnabas for a productive cough').join(' | '));
    assert.ok(words('seen at Barnabas for a productive cough').has('cough'));
    assert.deepEqual(keys('wheezes with Okonjo and Halvorsen'), ['wheez']);
    // A documentation verb is no concept either (note-words.json).
    assert.deepEqual(keys('follows with Okonjo and Halvorsen'), []);
  });

  it('eponyms stay candidates wherever they are written', () => {
    for (const [text, stem] of [
      ["positive Murphy's sign", 'murphi'],
      ['sputum with Charcot-Leyden crystals', 'charcot-leyden'],
      ['deep rapid Kussmaul breathing', 'kussmaul'],
      ['upgoing Babinski on the left', 'babinski'],
      ['stiff neck with Kernig and Brudzinski signs', 'brudzinski'],
      ['calf pain with Homans sign', 'homan'],
      ['history of Hodgkin disease', 'hodgkin'],
      ['facial droop from Bell palsy', 'bell'],
      ['periodic Cheyne-Stokes respirations', 'cheyne-stok'],
    ] as const) {
      const found = keys(text).flatMap((k) => k.split(' '));
      assert.ok(found.some((w) => w.startsWith(stem.slice(0, 5))), `${text}: ${keys(text).join(' | ')}`);
    }
  });

  it('a word opening a sentence, a line or a heading value is not taken for a name', () => {
    const text = 'Lungs: Clear to auscultation. Wheezing at times.\nCrackles at the base';
    for (const t of tokenize(text).filter((x) => /^[A-Z]/.test(x.raw))) assert.equal(isProperNoun(text, t), false, t.raw);
    // An English word capitalised mid-sentence is no name either ("Fever" in a list).
    assert.equal(isProperNoun('cough and Fever', tokenize('cough and Fever')[2]!), false);
    // Abbreviations in capitals are clinical (CTAB, NAD, JVD).
    assert.equal(isProperNoun('lungs CTAB, no JVD', tokenize('lungs CTAB, no JVD')[1]!), false);
    assert.equal(isProperNoun('seen at Barnabas', tokenize('seen at Barnabas')[2]!), true);
  });

  it('words that only place the patient are no concept alone ("Lives at [address]" left "lives")', () => {
    for (const w of ['lives', 'resides', 'transferred', 'referred', 'hospital', 'clinic']) assert.ok(NO_FINDING_ALONE.has(w), w);
    // In a pair they still may be one: "lives alone" says something about the patient.
    assert.ok(keys('lives alone').includes('live alon'));
  });
});
