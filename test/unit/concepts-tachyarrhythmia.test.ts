import { hasReading, lacksReading, shippedReader } from '../support/ddxplus-vocabulary.js';

/**
 * A named tachyarrhythmia is a racing heart (DDXPlus E_155), as SVT is; a measured fast rate
 * ("tachycardic", "sinus tachycardia") is not (concepts-recall-signs.test.ts). Ventricular
 * tachycardia had fallen with the measured rate: real notes' heart-failure and atrial-fibrillation
 * histories name it. Sentences written for this test.
 */
describe('reading: ventricular and atrial tachycardia are tachyarrhythmias (DDXPlus question set with the lexicon)', () => {
  let read: (text: string) => string[];
  before(async () => {
    read = await shippedReader();
  });
  const PALPITATIONS = /^\+Do you feel your heart is beating fast/;

  it('ventricular, atrial and nonsustained ventricular tachycardia read as the racing heart', () => {
    hasReading(read('Known cardiomyopathy with ventricular tachycardia, ICD in place.'), PALPITATIONS);
    hasReading(read('Holter showed atrial tachycardia.'), PALPITATIONS);
    hasReading(read('Two runs of NSVT overnight.'), PALPITATIONS);
  });

  it('a measured rate still is not', () => {
    lacksReading(read('Sinus tachycardia at 112 on arrival.'), PALPITATIONS);
    lacksReading(read('Febrile and tachycardic.'), PALPITATIONS);
  });
});
