import { hasReading, lacksReading, shippedReader } from '../support/ddxplus-vocabulary.js';

/**
 * What brings a pain on is no symptom of its own (analysis/atoms.ts continuesActions,
 * concepts/find-mentions.ts listGapped): "worse when I cough, sneeze or laugh" is a pain made
 * worse by coughing or straining, not a runny nose. Sentences written for this test.
 */
describe('reading: a list of actions that bring a pain on stays with the pain (DDXPlus question set with the lexicon)', () => {
  let read: (text: string) => string[];
  before(async () => {
    read = await shippedReader();
  });
  const NASAL = /^\+Do you have nasal congestion/;
  const WORSE_WITH_COUGH = /^\+Are the symptoms or pain increased with coughing/;

  it('a list after a comma continues the modifier whose last word is an action', () => {
    for (const text of ['My ribs kill when I cough, sneeze or laugh.', 'Pain when coughing, sneezing, or laughing.', 'Pain in my side, worse on coughing, sneezing and straining.']) {
      lacksReading(read(text), NASAL);
      hasReading(read(text), WORSE_WITH_COUGH);
    }
  });

  it('a phrase read across a list inserted into it hides the word inside it', () => {
    lacksReading(read('Chest pain worse with coughing and sneezing.'), NASAL);
    hasReading(read('Chest pain worse with coughing and sneezing.'), WORSE_WITH_COUGH);
    // Other punctuation inside the gap is no list: the vomiting stays a finding of its own.
    const got = read('forceful vomiting x6 overnight (seasick after the buffet), then sudden chest pain');
    hasReading(got, /^\+Have you vomited several times/);
    hasReading(got, /^\+Are you feeling nauseous/);
  });

  it('without a list in it, a looser phrase still does not hide an exact shorter word', () => {
    // "sore troat" reads the sore throat by a typo-tolerant form; the exact "sore" keeps its pain reading, as before the list rule.
    hasReading(read('Sore troat for three days.'), /^\+Do you have pain somewhere/);
  });

  it('another form of a concept already read hides nothing unless it was read across a list', () => {
    // The AF question's longer form covers "irregular heartbeat"; the palpitations question keeps its reading, as before.
    hasReading(read('Irregularly irregular heartbeat.'), /^\+Do you feel your heart is beating fast/);
  });

  it('findings listed after a modifier are still findings, and a sneeze on its own is still a nasal symptom', () => {
    hasReading(read('Pain after eating, nausea and vomiting.'), /^\+.*(nausea|vomit)/i);
    hasReading(read('Fever since I got home, cough and sneezing.'), NASAL);
    hasReading(read('I keep sneezing and my nose is blocked.'), NASAL);
    // One bare word after the comma, or a list that goes on with a finding, is the note's next finding.
    for (const text of ['SOB worse on exertion, cough, wheeze.', 'Chest pain worse when lying down, cough.', 'Pain on swallowing, cough.', 'Epigastric pain after eating, coughing.'])
      hasReading(read(text), /^\+Do you have a cough\? yes/);
  });
});
