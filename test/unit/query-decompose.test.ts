import { strict as assert } from 'node:assert';
import { decompose } from '../../src/query/decompose.js';

const texts = (text: string) => decompose({ text, findings: [] }).findings.map((f) => [f.polarity === 'absent' ? '-' : '+', f.text].join(''));

describe('query: decompose (eq. 8)', () => {
  it('splits sentences, semicolons, newlines and clauses', () => {
    assert.deepEqual(texts('Chest pain at rest. Shortness of breath; cough\nsweating, nausea'), ['+Chest pain at rest', '+Shortness of breath', '+cough', '+sweating', '+nausea']);
  });

  it('splits bulleted and numbered list items', () => {
    assert.deepEqual(texts('- fever\n* sore throat\n1. runny nose\n2) headache'), ['+fever', '+sore throat', '+runny nose', '+headache']);
  });

  it('keeps negations as absent findings with the cue stripped', () => {
    // Issue 17: "without" is a negation cue inside a clause, so the sputum is its own absent finding.
    assert.deepEqual(texts('No fever. Denies chest pain. Cough without sputum'), ['-fever', '-chest pain', '+Cough', '-sputum']);
    assert.deepEqual(texts('without cough'), ['-cough']);
    // Articles are trimmed from findings since issue 17 ("a rash" -> "rash").
    assert.deepEqual(texts('The patient does not have a rash'), ['-rash']);
  });

  it('carries a negation through a list ("no fever, chills or cough")', () => {
    assert.deepEqual(texts('no fever, chills or cough'), ['-fever', '-chills', '-cough']);
    assert.deepEqual(texts('no fever, but a cough'), ['-fever', '+cough']);
  });

  it('does not split decimals', () => {
    // Issue 17: a measured temperature >= 38.0 °C is the fever finding, with the value.
    const out = decompose({ text: 'temperature 38.5 degrees', findings: [] }).findings;
    assert.deepEqual(out.map((f) => [f.text, f.polarity, f.values?.temperatureC]), [['fever', 'present', 38.5]]);
  });

  it('splits a question with several answers into one finding per answer', () => {
    assert.deepEqual(texts('pain location: lower chest, upper chest'), ['+pain location: lower chest', '+pain location: upper chest']);
    assert.deepEqual(texts('Do you have a fever? yes'), ['+Do you have a fever? yes']);
    assert.deepEqual(texts('Do you have a fever? no'), ['-Do you have a fever?']);
    assert.deepEqual(texts('pain location: nowhere'), ['-pain location:']);
  });

  it('passes DDXPlus evidence codes and structured findings straight through', () => {
    const out = decompose({ text: "['E_91', 'E_55_@_V_89', 'E_56_@_7']", findings: [{ text: 'x', polarity: 'absent', code: 'E_53_@_V_1', valueCode: null }] }).findings;
    assert.deepEqual(
      out.map((f) => [f.code, f.valueCode, f.polarity]),
      [['E_53', 'V_1', 'absent'], ['E_91', null, 'present'], ['E_55', 'V_89', 'present'], ['E_56', '7', 'present']],
    );
  });

  it('returns nothing for empty text', () => {
    assert.deepEqual(texts('  \n  '), []);
  });
});
