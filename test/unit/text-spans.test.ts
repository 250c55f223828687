import { strict as assert } from 'node:assert';
import { analyzeClinicalText } from '../../src/clinical-text/analysis/index.js';

/** Where findings sit in the text, their clause and cue, and invariants over many inputs (issue 17). */
describe('text: spans, clauses and cues', () => {
  it('span and clause are offsets into the original text', () => {
    const text = 'Sharp chest pain, worse when breathing in, better leaning forward. No cough.';
    const fs = analyzeClinicalText(text).findings;
    assert.deepEqual(fs.map((f) => text.slice(f.span.start, f.span.end)), ['Sharp chest pain', 'worse when breathing in', 'better leaning forward', 'cough']);
    // the modifiers keep the pain's clause, so the matcher knows what they describe
    const clause = 'Sharp chest pain, worse when breathing in, better leaning forward';
    assert.deepEqual(fs.slice(0, 3).map((f) => text.slice(f.clause.start, f.clause.end)), [clause, clause, clause]);
    assert.equal(text.slice(fs[3]!.clause.start, fs[3]!.clause.end), 'No cough');
  });

  it('offsets survive masked demographics and values, CRLF and typographic apostrophes', () => {
    const text = '61M c/o cough x3d\r\nI don’t have a fever';
    const fs = analyzeClinicalText(text).findings;
    assert.deepEqual(fs.map((f) => [f.text, text.slice(f.span.start, f.span.end), f.assertion]), [['cough', 'cough', 'present'], ['fever', 'fever', 'absent']]);
  });

  it('the cue is the text that set the attribute, null when nothing did', () => {
    const cue = (text: string) => analyzeClinicalText(text).findings.map((f) => f.cue);
    assert.deepEqual(cue('Denies fever'), ['Denies']);
    assert.deepEqual(cue('mother had an MI'), ['mother had']);
    assert.deepEqual(cue('h/o asthma'), ['h/o']);
    assert.deepEqual(cue('No cough'), ['No']);
    assert.deepEqual(cue('afebrile'), ['afebrile']);
    assert.deepEqual(cue('?pneumonia'), ['?']);
    assert.deepEqual(cue('cough'), [null]);
    assert.deepEqual(cue("I can't catch my breath"), [null]);
  });

  it('text inside a finding keeps its own spelling and parentheses', () => {
    const fs = analyzeClinicalText('FHx lung ca (brother), itchy eyes/nose').findings;
    assert.deepEqual(fs.map((f) => f.text), ['lung ca (brother)', 'itchy eyes/nose']);
  });
});

describe('text: invariants over varied input', () => {
  const inputs = [
    '', ' ', '.', ',,,', '???', 'no', 'No.', 'not', 'but', 'and and and', '-', '+', '()', ':', 'E_55', '1/10', '999F', '0M',
    'no no no fever', 'denies denies', 'If', 'if I', '7/10 7/10', 'x3d', 'since yesterday', '\n\n- \n* ', 'a'.repeat(500),
    'Fever, chills; cough. No rash! ?pneumonia r/o PE, h/o DVT. Mother: MI. 45 y/o F T 38.9 c/o CP x3d 8/10 radiating to L arm.',
    "I've had a fever and my throat hurts when I swallow and I keep coughing, my son has a cold, I'm 34, female",
    'Øre smerter — ça fait mal 😷 tos ×3 días',
  ];
  for (const text of inputs) {
    it(`spans stay inside the text and findings are non-empty: ${JSON.stringify(text.slice(0, 40))}`, () => {
      const a = analyzeClinicalText(text);
      for (const f of a.findings) {
        assert.ok(f.text.trim().length > 0);
        assert.ok(0 <= f.span.start && f.span.start < f.span.end && f.span.end <= text.length, JSON.stringify(f));
        assert.ok(0 <= f.clause.start && f.clause.start < f.clause.end && f.clause.end <= text.length, JSON.stringify(f));
        assert.ok(['present', 'absent', 'possible', 'hypothetical'].includes(f.assertion));
        if (f.values.intensity !== undefined) assert.ok(f.values.intensity >= 0 && f.values.intensity <= 10);
      }
      // deterministic
      assert.deepEqual(analyzeClinicalText(text), a);
    });
  }
});
