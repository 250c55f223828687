import { strict as assert } from 'node:assert';
import { analyzeClinicalText, type ExtractedValues } from '../../src/clinical-text/analysis/index.js';

/** Values read from findings (issue 17): laterality, 0-10 intensity, temperature in °C, durations. */
const valuesOf = (text: string, finding: string): ExtractedValues => {
  const f = analyzeClinicalText(text).findings.find((x) => x.text === finding);
  assert.ok(f, `no finding "${finding}" in ${JSON.stringify(analyzeClinicalText(text).findings.map((x) => x.text))}`);
  return f.values;
};

const cases: [string, string, string, ExtractedValues][] = [
  // [what, input, finding text, values]
  ['R abbreviation', 'R knee pain', 'R knee pain', { side: 'R' }],
  ['L abbreviation', 'crushing CP radiating to L arm', 'crushing CP radiating to L arm', { side: 'L' }],
  ['rt', 'rt ankle swelling', 'rt ankle swelling', { side: 'R' }],
  ['lt', 'lt ear pain', 'lt ear pain', { side: 'L' }],
  ['left-sided', 'left-sided chest pain', 'left-sided chest pain', { side: 'L' }],
  ['bilateral', 'bilateral leg swelling', 'bilateral leg swelling', { side: 'both' }],
  ['both', 'pain in both legs', 'pain in both legs', { side: 'both' }],
  ['b/l', 'b/l ankle edema', 'b/l ankle edema', { side: 'both' }],
  ['right and left', 'pain in the right and left knee', 'pain in the right and left knee', { side: 'both' }],
  ['"right after" is no side', 'worse if I lie down right after eating', 'worse if I lie down right after eating', {}],
  ['7/10', 'chest pain 7/10', 'chest pain', { intensity: 7 }],
  ['8 out of 10', 'pain 8 out of 10', 'pain', { intensity: 8 }],
  ['intensity before the finding', '6/10 headache', 'headache', { intensity: 6 }],
  ['intensity in the next clause', 'chest pain, 7/10', 'chest pain', { intensity: 7 }],
  ['intensity with nothing else to name', "sharp pain behind my eye, it's like 10/10", 'sharp pain behind my eye', { intensity: 10 }],
  ['x3 days', 'cough x3 days', 'cough', { duration: { value: 3, unit: 'day', days: 3 } }],
  ['x3d', 'c/o CP x3d', 'CP', { duration: { value: 3, unit: 'day', days: 3 } }],
  ['for 2 wks', 'rash for 2 wks', 'rash', { duration: { value: 2, unit: 'week', days: 14 } }],
  ['for the past week', 'cough for the past week', 'cough', { duration: { value: 1, unit: 'week', days: 7 } }],
  ['since yesterday', 'headache since yesterday', 'headache', { duration: { value: 1, unit: 'day', days: 1 } }],
  ['2 days ago', 'sore throat started 2 days ago', 'sore throat', { duration: { value: 2, unit: 'day', days: 2 } }],
  ['3-day history', '3-day history of vomiting', 'vomiting', { duration: { value: 3, unit: 'day', days: 3 } }],
  ['months', 'nasal obstruction x 3 mo', 'nasal obstruction', { duration: { value: 3, unit: 'month', days: 90 } }],
  ['hours', 'dyspnea x 2h', 'dyspnea', { duration: { value: 2, unit: 'hour', days: 0.083 } }],
  ['word number', 'fever for three days', 'fever', { duration: { value: 3, unit: 'day', days: 3 } }],
  ['a couple of', 'swollen for a couple of days', 'swollen', { duration: { value: 2, unit: 'day', days: 2 } }],
  ['over a month', 'cough for over a month', 'cough', { duration: { value: 1, unit: 'month', days: 30 } }],
  ['duration opening a clause', '74M HTN, 2d palpitations', 'palpitations', { duration: { value: 2, unit: 'day', days: 2 } }],
  ['duration after "and" belongs to what follows', "I have asthma and for the last 3 days I'm wheezing", 'wheezing', { duration: { value: 3, unit: 'day', days: 3 } }],
  ['duration before "and" belongs to what precedes', 'cough x3 days and fever', 'cough', { duration: { value: 3, unit: 'day', days: 3 } }],
  ['"in and" is no duration', 'inability to breathe in and speak', 'speak', {}],
  ['everything at once', 'R knee pain 7/10 for 2 wks', 'R knee pain', { side: 'R', intensity: 7, duration: { value: 2, unit: 'week', days: 14 } }],
  // temperature: a measured temperature is the fever finding (>= 38.0 present, < 37.5 absent)
  ['39C', '39C fever', 'fever', { temperatureC: 39 }],
  ['temp 38.9', 'temp 38.9', 'fever', { temperatureC: 38.9 }],
  ['102.5F', 'fever 102.5F', 'fever', { temperatureC: 39.2 }],
  ['T 101F', 'T 101F', 'fever', { temperatureC: 38.3 }],
  ['febrile to 39.4', 'febrile to 39.4', 'fever', { temperatureC: 39.4 }],
  ['degrees', 'temperature 38.5 degrees', 'fever', { temperatureC: 38.5 }],
  ['T 39.4 C', 'T 39.4 C, HR 120', 'fever', { temperatureC: 39.4 }],
  ['fever of 102 (°F by range)', 'he has a fever of 102', 'fever', { temperatureC: 38.9 }],
  ['temperature with a duration', 'fever 39.2 x2d', 'fever', { temperatureC: 39.2, duration: { value: 2, unit: 'day', days: 2 } }],
  ['37.8: a temperature, no fever finding', 'temp 37.8', 'temperature', { temperatureC: 37.8 }],
];

describe('text: values (table)', () => {
  for (const [what, input, finding, want] of cases) {
    it(`${what}: ${JSON.stringify(input)}`, () => assert.deepEqual(valuesOf(input, finding), want));
  }
});

describe('text: temperature -> fever', () => {
  const fever = (text: string) => analyzeClinicalText(text).findings.filter((f) => f.text === 'fever').map((f) => [f.assertion, f.values.temperatureC]);
  it('>= 38.0 °C is a present fever, < 37.5 °C an absent one, in between none', () => {
    assert.deepEqual(fever('temp 38.0'), [['present', 38]]);
    assert.deepEqual(fever('Temp 36.8, no cough'), [['absent', 36.8]]);
    assert.deepEqual(fever('T 98.6F'), [['absent', 37]]);
    assert.deepEqual(fever('temp 37.6'), []);
  });
  it('a temperature inside another finding adds one fever finding; a finding naming the fever gets the value', () => {
    assert.deepEqual(analyzeClinicalText('chills 39.5C').findings.map((f) => [f.text, f.values.temperatureC]), [['chills', 39.5], ['fever', 39.5]]);
    assert.deepEqual(analyzeClinicalText('abrupt onset fever 39.4C').findings.map((f) => [f.text, f.values.temperatureC]), [['abrupt onset fever', 39.4]]);
  });
  it('a negated fever stays absent whatever is written after it', () => {
    assert.deepEqual(fever('no fever'), [['absent', undefined]]);
  });
  it('numbers that are no temperature stay out: heart rate, blood pressure, ages, 7/10', () => {
    for (const text of ['HR 120', 'BP 120/80', 'pain 7/10', '45 y/o', 'SpO2 90%']) assert.deepEqual(fever(text), [], text);
  });
});
