import { strict as assert } from 'node:assert';
import { analyzeClinicalText } from '../../src/clinical-text/analysis/index.js';

/** Age and sex from the text (issue 17); the words that said them never become findings. */
const cases: [string, number | null, 'M' | 'F' | null, string[]][] = [
  // [input, age, sex, remaining finding texts]
  ['61M', 61, 'M', []],
  ['62M', 62, 'M', []],
  ['45F', 45, 'F', []],
  ['45 y/o F', 45, 'F', []],
  ['45yo female', 45, 'F', []],
  ['2yo', 2, null, []],
  ['2 y/o girl', 2, 'F', []],
  ['a 67-year-old man with chest pain', 67, 'M', ['chest pain']],
  ['45 year old male, cough', 45, 'M', ['cough']],
  ["I'm 34, female", 34, 'F', []],
  ["I'm 34, female, and I have a headache", 34, 'F', ['headache']],
  ['I am 52 and I have a cough', 52, null, ['cough']],
  ["I'm only 30 and I used to run", 30, null, ['run']],
  ['my 6 month old son has a fever', 0.5, 'M', ['fever']],
  ['my 3 yr old daughter has diarrhea', 3, 'F', ['diarrhea']],
  ['18mo M, barky cough', 1.5, 'M', ['barky cough']],
  ['8mo M, wheeze', 0.67, 'M', ['wheeze']],
  ['my baby (10 months) is wheezy', 0.83, null, ['wheezy']],
  ['7mo girl, coryza and wheeze', 0.58, 'F', ['coryza', 'wheeze']],
  ['my daughter (8) just had a cashew cookie, hives everywhere', 8, 'F', ['cashew cookie', 'hives everywhere']],
  ['My husband (63) is grey and sweaty', 63, 'M', ['grey', 'sweaty']],
  ['baby 9 weeks, cough and breathing very fast', 0.17, null, ['cough', 'breathing very fast']],
  ['baby boy 4 months, cough', 0.33, 'M', ['cough']],
  ['3yoM with fever', 3, 'M', ['fever']],
  ['Pt is a 45 yo M presenting with SOB', 45, 'M', ['SOB']],
  ['age: 45\nsex: male', 45, 'M', []],
  ['age: unknown\nsex: unknown', null, null, []],
  ['Sex: F. Age 70. Dyspnea', 70, 'F', ['Dyspnea']],
  ["He's 16. His neck is twisted", 16, 'M', ['neck is twisted']],
  ['my grandma is 82, bad cough', 82, 'F', ['bad cough']],
  ['my son is 18 months, pulling at his ear', 1.5, 'M', ['pulling at his ear']],
  // A carer opening with the relative, without "my" (issue 48): the text is about them.
  ['Dad is 74 with COPD, more breathless', 74, 'M', ['COPD', 'more breathless']],
  ["Mum's 81, off her food", 81, 'F', ['off her food']],
  // The age without "is … old" (issue 48, session of 30 Nov): a relative named first, a title, a bare number opening or closing the text.
  ['my father 71 years, he gets dizzy', 71, 'M', ['dizzy']],
  ['my niece and my daughter 4 yrs old has a rash', 4, 'F', ['niece', 'rash']],
  ['my uncle age 58 has a cough', 58, 'M', ['cough']],
  ['Grandma (88) keeps falling', 88, 'F', ['falling']],
  ['Hi, Son (12) has a sore ear', 12, 'M', ['sore ear']],
  ['Daughter 9 wheezy since lunch', 9, 'F', ['wheezy since lunch']],
  ['Mr B, 67, short of breath', 67, 'M', ['short of breath']],
  ['4/12 girl, poor feeding', 0.33, 'F', ['poor feeding']],
  ['Im 44, bad headache', 44, null, ['bad headache']],
  ['58, diabetic, foot ulcer', 58, null, ['diabetic', 'foot ulcer']],
  ['tight chest on hills. 66', 66, null, ['tight chest on hills']],
  ['itchy eyes every spring, 23 yrs', 23, null, ['itchy eyes every spring']],
  ['my nan is 79, coughing', 79, 'F', ['coughing']],
  ["he's 9 months and wheezy", 0.75, 'M', ['wheezy']],
  ["I'm 34 weeks pregnant", null, null, ['34 weeks pregnant']],
  ['My 3 year old has been pulling at his right ear', 3, 'M', ['pulling at his right ear']],
  ['My 4 month old baby is wheezing and she has a fever', 0.33, 'F', ['wheezing', 'fever']],
  ['my son has a barking cough and sounds hoarse, no drooling', null, 'M', ['barking cough', 'sounds hoarse', 'drooling']],
  // not ages
  ['cough for 3 mo, boy is tired', null, null, ['cough', 'boy is tired']],
  ["I'm 34 weeks pregnant", null, null, ['34 weeks pregnant']],
  ['T 101F', null, null, ['fever']],
  ['fever 102.5F', null, null, ['fever']],
  ['cough x3 days', null, null, ['cough']],
  ['pain 7/10', null, null, ['pain']],
];

describe('text: demographics (table)', () => {
  for (const [input, age, sex, rest] of cases) {
    it(JSON.stringify(input), () => {
      const a = analyzeClinicalText(input);
      assert.deepEqual([a.demographics.age, a.demographics.sex], [age, sex]);
      assert.deepEqual(a.findings.map((f) => f.text), rest);
    });
  }

  it('the span covers the expression that gave the age', () => {
    const text = 'Pt is a 45 yo M presenting with SOB';
    const { span } = analyzeClinicalText(text).demographics;
    assert.ok(span);
    assert.equal(text.slice(span.start, span.end), '45 yo M');
    assert.equal(analyzeClinicalText('cough').demographics.span, null);
  });

  it('a carer\'s opening relative is the patient; the same relative later in the text is still family', () => {
    const carer = analyzeClinicalText('Dad is 74 with COPD, coughing more.');
    assert.deepEqual(carer.findings.map((f) => [f.text, f.experiencer]), [['COPD', 'patient'], ['coughing more', 'patient']]);
    const later = analyzeClinicalText("I'm 30 with chest pain. Mum is 70 with diabetes.");
    const who = new Map(later.findings.map((f) => [f.text, f.experiencer]));
    assert.deepEqual([who.get('chest pain'), who.get('diabetes')], ['patient', 'family']);
    // What grandchildren call a grandparent is family too.
    assert.deepEqual(analyzeClinicalText('My nan has diabetes.').findings.map((f) => f.experiencer), ['family']);
  });

  it('a number of years a condition or habit has lasted is no age, beside a relative or opening the text', () => {
    for (const text of ['my husband 20 years smoker, now coughing blood', 'my mother 10 years diabetic, confused today', 'Dad 15 years on insulin, sweaty and shaky', 'my father 30 years of smoking, breathless'])
      assert.equal(analyzeClinicalText(text).demographics.age, null, text);
    // An age said the same way is still read, and so is the age beside the duration.
    assert.equal(analyzeClinicalText('my mother 82 years had heart failure').demographics.age, 82);
    assert.equal(analyzeClinicalText('Dad 66 years, 20 years smoker').demographics.age, 66);
  });

  it('a number after a relative that is a time or an amount, or a decimal\'s tail, is no age', () => {
    for (const text of ['my sister 2 years ago had a clot', 'my wife 3 years post chemo', 'my father 2 years after his stroke, breathless', 'my mum 5 years since her bypass', 'Dad 3 days post op, fever', 'Mum 2 weeks ago fell', 'my brother 5 years older has asthma', 'fever, temp 38.6', '2 and a half days of cough', 'cough x 3', 'IM 40 mg given'])
      assert.equal(analyzeClinicalText(text).demographics.age, null, text);
  });

  it('a number after an opening relative that counts or measures something is no age', () => {
    for (const text of ['Mum 10 units insulin at night', 'Dad 2 tablets of GTN, no relief', 'Son 39 temp since lunch', 'Mum 120 bpm on her watch', 'Grandma 5 falls this year', 'Dad 3 stents, chest pain again', 'Hi, Son 2 doses of antibiotics and still feverish', 'Mum 3 nights ago fell'])
      assert.equal(analyzeClinicalText(text).demographics.age, null, text);
    // The age itself is still read.
    assert.equal(analyzeClinicalText('Son 17 sudden sharp chest pain').demographics.age, 17);
  });

  it('a bare number that goes on with a count or a score is no age, at the opening or the close', () => {
    for (const text of ['12, 13 and 14 of May: fevers', 'vomited 3 times, 4', 'Apgars 8, 9', 'smokes 20 a day, 40'])
      assert.equal(analyzeClinicalText(text).demographics.age, null, text);
    // A clause without a number before it, or a sentence of its own, still closes with the age.
    assert.equal(analyzeClinicalText('dry cough, 29').demographics.age, 29);
    assert.equal(analyzeClinicalText('sore for 10 days. 45').demographics.age, 45);
  });

  it('a relative with an age beside the patient\'s own age is family history, not the patient', () => {
    const a = analyzeClinicalText('62 year old woman, breathless. My mother 82 years had heart failure.');
    assert.deepEqual([a.demographics.age, a.demographics.sex], [62, 'F']);
    assert.deepEqual(a.findings.map((f) => [f.text, f.experiencer]), [['breathless', 'patient'], ['heart failure', 'family']]);
    assert.equal(analyzeClinicalText('45M with cough; my son 3 yrs old had the same last week.').demographics.age, 45);
  });

  it('a follow-up written as a fraction ("6/12 f/u") is no infant\'s age and no sex', () => {
    for (const text of ['Plan: 6/12 f/u in clinic', 'R/v 2/52 f/u GP'])
      assert.deepEqual([analyzeClinicalText(text).demographics.age, analyzeClinicalText(text).demographics.sex], [null, null], text);
  });

  it('a relative the writer only mentions stays an "other" experiencer', () => {
    const a = analyzeClinicalText("My son has a cold and I've been coughing");
    assert.deepEqual(a.findings.map((f) => [f.text, f.experiencer]), [['cold', 'other'], ['coughing', 'patient']]);
    assert.equal(a.demographics.sex, null);
  });
});
