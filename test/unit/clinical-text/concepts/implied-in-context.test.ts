import assert from 'node:assert/strict';
import { matchConcepts } from '../../../../src/clinical-text/concepts/match-concepts.js';
import { decompose } from '../../../../src/clinical-text/decompose.js';
import { shippedDdxplusVocabulary } from '../../../support/ddxplus-vocabulary.js';

/**
 * A complaint asked in the context of another (issue 48, implied-in-context.ts): told beside
 * intense coughing fits, vomiting is vomiting after coughing and an inspiratory squeak the whoop.
 * Sentences written for this test.
 */
describe('implied in context: coughing fits make vomiting post-tussive and a squeak the whoop', () => {
  let read: (text: string) => { feature: string; polarity: string; alternatives?: string; via?: string }[];
  before(async () => {
    const { vocab } = await shippedDdxplusVocabulary();
    read = (text) => {
      const { findings } = decompose({ text, findings: [] });
      const m = matchConcepts({ snapshot: vocab.snapshot, lexicon: vocab.lexicon, phraseEmbedder: null }, { findings, text });
      return [...m.values()].flat().map((x) => ({ feature: x.featureText, polarity: x.polarity, alternatives: x.alternatives, via: x.via }));
    };
  });
  const POST = /^Did you vomit after coughing/;
  const WHOOP = /^Do you wheeze while inhaling or is your breathing noisy after coughing spells/;
  const one = (got: ReturnType<typeof read>, re: RegExp) => got.find((x) => re.test(x.feature));

  it('vomiting in another clause than the fits is also vomiting after coughing, as one observation with it', () => {
    const got = read('Cough for a month, it comes in fits, and sometimes I throw up.');
    const post = one(got, POST);
    assert.ok(post, JSON.stringify(got));
    assert.equal(post.polarity, 'present');
    assert.match(post.via ?? '', /beside intense coughing fits/);
    // The vomiting stays, and the implied question is its alternative, not a second observation.
    const vomit = one(got, /^Have you vomited several times/);
    assert.ok(vomit);
    assert.equal(post.alternatives, vomit.alternatives);
  });

  it('a high-pitched noise breathing in, beside coughing fits, is the whoop', () => {
    const got = read('Coughing fits, then a squeaky noise as the air gets in.');
    assert.ok(one(got, WHOOP), JSON.stringify(got));
    assert.ok(one(got, /^Have you noticed a high pitched sound when breathing in/));
  });

  it('without coughing fits, or with them denied, vomiting and stridor are only themselves', () => {
    for (const text of ['Vomiting and diarrhoea since last night, a cough too.', 'Stridor and a barking cough.', 'No coughing fits. Vomited twice, some stridor.']) {
      const got = read(text);
      assert.equal(one(got, POST), undefined, text);
      assert.equal(one(got, WHOOP), undefined, text);
    }
  });
});
