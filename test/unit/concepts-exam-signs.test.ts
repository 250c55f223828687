import { hasReading, lacksReading, shippedReader } from '../support/ddxplus-vocabulary.js';

/**
 * Exam and imaging signs as clinicians write them (issue 47, exam-style vignettes), read through
 * the DDXPlus lexicon where a question asks what the sign shows, and never as the everyday word
 * inside them ("PR depression" is no depression, "subcutaneous emphysema" no COPD).
 */
describe('reading: exam and imaging signs (DDXPlus question set with the lexicon)', () => {
  let read: (text: string) => string[];
  before(async () => {
    read = await shippedReader();
  });
  const [has, lacks] = [hasReading, lacksReading];

  it('the ECG and rub of pericarditis read as pericarditis, not as coronary disease or depression', () => {
    const got = read('ECG: diffuse concave ST elevation with PR depression.');
    has(got, /^\+Have you ever had a pericarditis/);
    lacks(got, /heart attack|depression\? yes$/);
    // The word alone is still the history question.
    has(read('history of depression on sertraline'), /^\+Have you ever been diagnosed with depression/);
    // A regional ST elevation is no pericarditis (an infarct's is read by the KG's own concepts, if any).
    lacks(read('ECG: 3 mm ST elevation in V1-V4.'), /pericarditis|depression\? yes$/);
    has(read('Three-component friction rub at the left sternal border.'), /^\+Have you ever had a pericarditis/);
    has(read('Pericardial friction rub heard best sitting forward.'), /^\+Have you ever had a pericarditis/);
  });

  it('pulmonary edema on the chest film reads as fluid in the lungs', () => {
    has(read('CXR: Kerley B lines and cardiomegaly.'), /^\+Have you ever had fluid in your lungs/);
    has(read('CXR: bilateral alveolar edema with cephalization.'), /^\+Have you ever had fluid in your lungs/);
  });

  it('an irregular pulse on exam or ECG reads as a very irregular heartbeat', () => {
    has(read('Irregularly irregular rhythm with a pulse deficit.'), /^\+Do you feel your heart is beating very irregularly/);
    has(read('ECG: irregular R-R intervals, fibrillatory baseline.'), /^\+Do you feel your heart is beating very irregularly/);
  });

  it('subcutaneous emphysema is a swelling, not COPD; emphysema alone stays COPD', () => {
    const got = read('Subcutaneous emphysema of the neck.');
    has(got, /^\+Do you have swelling/);
    lacks(got, /COPD/);
    has(read('72F with emphysema, smoker'), /^\+Do you have a chronic obstructive pulmonary disease/);
  });

  it('nasal exam: pale boggy mucosa and clear secretions are congestion, purulent drainage is coloured discharge, nothing vaginal', () => {
    const pale = read('Pale nasal mucosa with clear discharge.');
    has(pale, /^\+Do you have nasal congestion/);
    lacks(pale, /paler than usual|vaginal/);
    has(read('Purulent discharge from the middle meatus.'), /^\+Do you have greenish or yellowish nasal discharge/);
  });

  it('other signs land on their questions: palmar pallor, barrel chest, stocking paresthesias, bifacial weakness, head bobbing', () => {
    has(read('Pale palmar creases.'), /^\+Is your skin much paler than usual/);
    has(read('Barrel chest.'), /^\+Do you have a chronic obstructive pulmonary disease/);
    has(read('Stocking paresthesias.'), /^\+Do you have numbness, loss of sensation or tingling in the feet/);
    has(read('Bifacial weakness.'), /^\+Have you noticed weakness in your facial muscles/);
    has(read('Head bobbing and pursed-lip breathing.'), /^\+Are you experiencing shortness of breath/);
    has(read('Symmetric flaccid weakness of both legs.'), /^\+Do you feel weakness in both arms and\/or both legs/);
  });

  it('markers of atopy read as prone to allergies: eosinophilia, Charcot-Leyden crystals, a raised IgE, a positive skin prick test', () => {
    for (const text of ['Sputum shows Charcot-Leyden crystals.', 'Peripheral eosinophilia.', 'Total IgE elevated.', 'Skin prick test positive to dust mite.']) has(read(text), /^\+Are you more likely to develop common allergies/);
    has(read('No eosinophilia.'), /^-Are you more likely to develop common allergies/);
  });

  it('a denied sign is denied: "no pulse deficit", "no Kerley B lines"', () => {
    has(read('Regular rhythm, no pulse deficit.'), /^-Do you feel your heart is beating very irregularly/);
    has(read('CXR: no Kerley B lines.'), /^-Have you ever had fluid in your lungs/);
  });
});
