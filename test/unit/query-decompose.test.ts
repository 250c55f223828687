import { strict as assert } from 'node:assert';
import { decompose } from '../../src/clinical-text/decompose.js';

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
    assert.deepEqual(decompose({ text: null, findings: [] }).demographics, { age: null, sex: null, span: null });
  });

  it('prose findings carry the analyser fields; polarity is absent only for negated findings', () => {
    const text = '61M, crushing CP radiating to L arm x2h. Denies fever. ?PE. Mother had an MI. Return if SOB. h/o DVT';
    const out = decompose({ text, findings: [] });
    assert.deepEqual(
      out.findings.map((f) => [f.text, f.polarity, f.assertion, f.experiencer, f.temporality, f.cue]),
      [
        ['crushing CP radiating to L arm', 'present', 'present', 'patient', 'current', null],
        ['fever', 'absent', 'absent', 'patient', 'current', 'Denies'],
        ['PE', 'present', 'possible', 'patient', 'current', '?'],
        ['MI', 'present', 'present', 'family', 'current', 'Mother had'],
        ['SOB', 'present', 'hypothetical', 'patient', 'current', 'Return if'],
        ['DVT', 'present', 'present', 'patient', 'historical', 'h/o'],
      ],
    );
    const cp = out.findings[0]!;
    assert.equal(text.slice(cp.span!.start, cp.span!.end), 'crushing CP radiating to L arm');
    assert.deepEqual(cp.values, { side: 'L', duration: { value: 2, unit: 'hour', days: 0.083 } });
    assert.deepEqual(out.demographics, { age: 61, sex: 'M', span: { start: 0, end: 3 } });
  });

  it('a record rendering keeps its question/answer findings; its age and sex lines become demographics', () => {
    const text = 'age: 45\nsex: female\nDo you have a fever? yes\npain location: lower chest, upper chest\npain radiates to: nowhere\nHave you traveled out of the country in the last 4 weeks? N';
    const out = decompose({ text, findings: [] });
    assert.deepEqual(out.findings.map((f) => [f.polarity, f.text]), [
      ['present', 'Do you have a fever? yes'],
      ['present', 'pain location: lower chest'],
      ['present', 'pain location: upper chest'],
      ['absent', 'pain radiates to:'],
      ['present', 'Have you traveled out of the country in the last 4 weeks? N'],
    ]);
    assert.ok(out.findings.every((f) => f.assertion === undefined && f.span === undefined));
    assert.deepEqual([out.demographics.age, out.demographics.sex], [45, 'F']);
  });

  it('prose and renderings mix in text order; clinical section headers are prose', () => {
    const out = decompose({ text: 'CC: chest pain\nDo you smoke cigarettes? yes\nPMH: HTN, DM\nFHx: MI\nROS: negative for fever, chills', findings: [] });
    assert.deepEqual(
      out.findings.map((f) => [f.text, f.polarity, f.temporality ?? '-', f.experiencer ?? '-']),
      [
        ['chest pain', 'present', 'current', 'patient'],
        ['Do you smoke cigarettes? yes', 'present', '-', '-'],
        ['HTN', 'present', 'historical', 'patient'],
        ['DM', 'present', 'historical', 'patient'],
        ['MI', 'present', 'current', 'family'],
        ['fever', 'absent', 'current', 'patient'],
        ['chills', 'absent', 'current', 'patient'],
      ],
    );
  });

  it('relatives, exam systems and "Negative:" before a colon are prose', () => {
    const out = decompose({ text: 'Brother: asthma\nNegative: fever, chills\nLungs: crackles', findings: [] }).findings;
    assert.deepEqual(out.map((f) => [f.text, f.polarity, f.experiencer]), [['asthma', 'present', 'family'], ['fever', 'absent', 'patient'], ['chills', 'absent', 'patient'], ['crackles', 'present', 'patient']]);
  });

  it('a question in lay prose is not a rendering', () => {
    assert.deepEqual(texts('Is it serious? I have had a cough for 3 days'), ['+serious', '+cough']);
  });

  it('a setting before a note is no question: its answer is prose when it says who the patient is or runs past a value', () => {
    const gp = decompose({ text: 'GP: 39F, 12/7 purulent nasal discharge, no visual change', findings: [] });
    assert.deepEqual([gp.demographics.age, gp.demographics.sex], [39, 'F'], 'age and sex read, not a "GP: 39F" finding');
    assert.ok(gp.findings.some((f) => f.text === 'visual change' && f.polarity === 'absent'), 'negation read by the analysis');
    assert.ok(gp.findings.every((f) => !f.text.startsWith('GP:')));
    const oh = texts('OH: warehouse worker, lump in the groin that appears when lifting and goes back when lying down');
    assert.ok(oh.every((t) => !t.includes('OH:')), oh.join(' | '));
    assert.deepEqual(texts('pain location: lower chest, upper chest'), ['+pain location: lower chest', '+pain location: upper chest'], 'a rendering stays one');
  });

  it('an investigation\'s result is prose under its heading: "CT:", "UA dip:" are no questions', () => {
    assert.deepEqual(texts('CT: dilated appendix with wall enhancement, no perforation'), ['+dilated appendix', '+wall enhancement', '-perforation']);
    assert.deepEqual(texts('UA dip: nitrite +, LE +++'), ['+nitrite', '+LE']);
    assert.deepEqual(texts('CT head: no bleed'), ['-bleed']);
  });

  it('an exam line\'s value negated inside its item is a no, the label still naming the site', () => {
    // "soft" and "supple" are templated normals (sections/templated-normals.json): nothing, and no neck stiffness.
    assert.deepEqual(texts('Calf: soft, non-tender'), ['-Calf: tenderness']);
    assert.deepEqual(texts('Neck: supple, no LAD'), ['-neck stiffness', '-Neck: LAD']);
    assert.deepEqual(texts('Right leg: hot, tender'), ['+Right leg: hot', '+Right leg: tender']);
  });

  it('what makes a pain hurt stays with it ("hurts with deep breath", "winces w/ cough"); two symptoms with "with" are two', () => {
    assert.deepEqual(texts('hurts with deep breath'), ['+hurts with deep breath']);
    assert.deepEqual(texts('winces w/ cough'), ['+winces w/ cough']);
    assert.deepEqual(texts('fever with cough'), ['+fever', '+cough']);
  });

  it('a rendering\'s "absent" or "negative" is a no', () => {
    assert.deepEqual(texts('Chest pain: absent\nRapid strep: negative\nWheezing: yes'), ['-Chest pain:', '-Rapid strep:', '+Wheezing: yes']);
  });
});

describe('decompose: section headings of the shipped rules (issue 24)', () => {
  it('reads a discharge summary\'s headed lines as findings and demographics, not as "heading: answer" renderings', () => {
    const out = decompose({ text: 'Reason for admission: 34M with RLQ pain, anorexia, fever.\nHospital course: afebrile, tolerated diet.', findings: [] });
    assert.deepEqual(out.findings.map((f) => [f.polarity === 'absent' ? '-' : '+', f.text].join('')), ['+RLQ pain', '+anorexia', '+fever', '-fever', '+tolerated diet']);
    assert.deepEqual([out.demographics.age, out.demographics.sex], [34, 'M']);
    assert.ok(out.findings.every((f) => f.assertion !== undefined), 'each finding has an assertion');
  });
  it('knows every unambiguous heading of section-rules.json, and leaves the ambiguous ones and renderings alone', async () => {
    const { SHIPPED_HEADINGS, isSectionHeading } = await import('../../src/clinical-text/sections/shipped-headings.js');
    assert.ok(SHIPPED_HEADINGS.includes('reason for admission') && SHIPPED_HEADINGS.includes('hospital course'));
    assert.ok(!SHIPPED_HEADINGS.includes('pe') && !SHIPPED_HEADINGS.includes('p'), 'ambiguous headings stay out');
    assert.ok(isSectionHeading('Brief  Hospital Course'));
    assert.deepEqual(texts('pain location: upper chest'), ['+pain location: upper chest']);
  });
});
