import { hasReading, lacksReading, shippedReader } from '../support/ddxplus-vocabulary.js';

/**
 * "Never had X before" (analysis/analyze.ts worstEver, concepts/match-concepts.ts): new to the
 * patient. For a complaint that is its onset, so the complaint is present; for a history concept
 * (a DDXPlus antecedent: a past diagnosis or event) it is the answer no. Sentences written for
 * this test.
 */
describe('reading: "never had X before" is a new complaint but a denied history (DDXPlus question set with the lexicon)', () => {
  let read: (text: string) => string[];
  before(async () => {
    read = await shippedReader();
  });
  const ASTHMA = /asthma/i;

  it('a history concept never had before is denied, not present', () => {
    lacksReading(read("I've never had asthma before, but I'm wheezy tonight."), new RegExp(`^\\+.*${ASTHMA.source}`, 'i'));
    hasReading(read("I've never had asthma before, but I'm wheezy tonight."), new RegExp(`^-.*${ASTHMA.source}`, 'i'));
    // Said plainly, the same history is present.
    hasReading(read('I have had asthma since childhood.'), new RegExp(`^\\+.*${ASTHMA.source}`, 'i'));
  });

  it('a complaint never had before is present: its onset', () => {
    hasReading(read("I've never had chest pain before."), /^\+Do you have pain somewhere/);
    hasReading(read("I've never had a headache like this before."), /^\+Do you have pain somewhere/);
  });
});
