import assert from 'node:assert/strict';
import { conceptIndexFor } from '../../src/clinical-text/concepts/concept-index.js';
import { tokenize } from '../../src/clinical-text/concepts/normalize.js';
import { resolveFeatures } from '../../src/clinical-text/concepts/resolve-features.js';
import { shippedDdxplusVocabulary } from '../support/ddxplus-vocabulary.js';

/**
 * "No flank pain" denies pain at the flank, not pain: a denied finding that names an answer of a
 * follow-on question (a pain site) leaves the parent question ("any pain?") unsaid. "Denies pain"
 * still denies pain.
 */
describe('a denied site is no denied pain (DDXPlus question set with the lexicon)', () => {
  let read: (text: string) => string[];
  before(async () => {
    const { lexicon, vocab } = await shippedDdxplusVocabulary();
    const index = conceptIndexFor(vocab.snapshot, lexicon);
    read = (text) => resolveFeatures(index, { finding: { text, polarity: 'absent', code: null, valueCode: null, assertion: 'absent' }, tokens: tokenize(text), clauseTokens: [] })
      .map((m) => `${m.polarity === 'absent' ? '-' : '+'}${vocab.snapshot.features[m.feature]!.code}${vocab.snapshot.features[m.feature]!.valueCode ? `=${vocab.snapshot.features[m.feature]!.valueCode}` : ''}`);
  });
  it('"flank pain" denied: the flank sites, not the pain question E_53', () => {
    const got = read('flank pain');
    assert.ok(got.length > 0 && got.every((x) => x.startsWith('-E_55=')), got.join(' '));
  });
  it('"headache" denied: the head sites, not E_53', () => {
    const got = read('headache');
    assert.ok(got.length > 0 && !got.includes('-E_53'), got.join(' '));
  });
  it('"pain" denied: the pain question itself', () => assert.deepEqual(read('pain'), ['-E_53']));
  // Session 17: a denied circumstance is no denied finding.
  it('"pain when I walk uphill" denied: the exertion question E_218, not the pain E_53', () => {
    const got = read('pain when I walk uphill');
    assert.ok(got.includes('-E_218') && !got.includes('-E_53'), got.join(' '));
  });
  it('"pain at all" denied: no concept after the circumstance word, so the pain stays denied', () => assert.deepEqual(read('pain at all'), ['-E_53']));
  it('"flank pain on the left" denied: a site after the word is no circumstance', () => {
    const got = read('flank pain on the left');
    assert.ok(got.length > 0 && got.every((x) => x.startsWith('-E_55=')), got.join(' '));
  });
});
