import { strict as assert } from 'node:assert';
import { fileURLToPath } from 'node:url';
import { FollowupModel, type FollowupFeature } from '../../src/followups/model.js';
import { buildQuestionCatalogue } from '../../src/followups/question-model.js';
import { plainLabel } from '../../src/presentation/plain-label.js';
import { shippedVoice } from '../../src/presentation/shipped-voice.js';
import { parseVoiceData } from '../../src/presentation/voice-data.js';
import { isClinicalLabel, isClinicalQuestion, labelProblems, questionProblems } from '../../src/presentation/voice-checks.js';
import { loadDdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';
import { ddxplusAnswerType, renderFinding } from '../../src/sources/ddxplus/render.js';
import { parseEvidenceToken } from '../../src/sources/ddxplus/evidence-token.js';

const DIR = fileURLToPath(new URL('../../datasets/ddxplus', import.meta.url));

describe('presentation: the clinical voice checks', () => {
  it('rejects the patient voice, malformed questions and glued answers', () => {
    assert.ok(questionProblems('Are you a former smoker?').includes('second-person'));
    assert.ok(questionProblems('Characterize your pain:').includes('not-one-question'));
    assert.ok(questionProblems('Characterize your pain:').includes('colon'));
    assert.ok(questionProblems('Does the patient have: breathe?').includes('template'));
    assert.ok(questionProblems('Fever? Cough?').includes('not-one-question'));
    assert.ok(labelProblems('lesions peel off: yes').includes('glued-answer'));
    assert.ok(labelProblems('Are the symptoms or pain increased with coughing? yes').includes('question-form'));
    assert.ok(labelProblems('Cough yes').includes('glued-answer'));
    assert.ok(labelProblems('x'.repeat(61)).includes('too-long'));
    assert.ok(labelProblems('E_55 V_12').includes('unreadable'));
  });
  it('accepts clinical labels and questions', () => {
    for (const q of ['Former smoker?', 'Pain worse with coughing or straining?', 'Where is the pain?', 'Pain intensity (0-10)?']) assert.ok(isClinicalQuestion(q), q);
    for (const l of ['Rash colour pink', 'Pain at right iliac wing', 'Underweight (BMI under 18.5)', 'Fever']) assert.ok(isClinicalLabel(l), l);
  });
});

describe('presentation: labels from a feature\'s own text', () => {
  it('takes off the patient-facing lead, a glued answer and a SNOMED tag', () => {
    assert.equal(plainLabel('Do you have a cough? yes', { question: 'Do you have a cough?', valueText: 'yes' }), 'Cough');
    assert.equal(plainLabel('Have you ever had a stroke? no', { question: 'Have you ever had a stroke?', valueText: 'no' }), 'No stroke');
    assert.equal(plainLabel('Fever (finding)'), 'Fever');
    assert.equal(plainLabel('pain in your chest'), 'Pain in the chest');
    const long = plainLabel('a very long description of a finding that goes on and on well beyond what a label can hold');
    assert.ok(long.length <= 60 && long.endsWith('…'), long);
  });
});

describe('presentation: the shipped DDXPlus voice', () => {
  it('gives every DDXPlus evidence and value a clinical label, question and option, with its answer type kept', async () => {
    const dict = await loadDdxplusDictionary(DIR);
    const voice = shippedVoice();
    const features: FollowupFeature[] = [];
    for (const ev of dict.evidences.values()) {
      const tokens = ev.data_type === 'B' ? [ev.name] : ev['possible-values'].map((v) => `${ev.name}_@_${v}`);
      for (const t of tokens) {
        const tok = parseEvidenceToken(t);
        assert.ok(tok.ok, t);
        const f = renderFinding(tok.value, ev);
        assert.ok(f.ok, t);
        const ff = { id: `f:${t}`, ...f.value };
        features.push(ff);
        assert.deepEqual(labelProblems(voice.label(ff)), [], `${t}: ${voice.label(ff)}`);
        const q = voice.yesNoQuestion(ff);
        assert.ok(q !== null && isClinicalQuestion(q), `${t}: ${q}`);
        assert.ok(!voice.optionLabel(ff).includes('?'), t);
      }
    }
    const catalogue = buildQuestionCatalogue(features);
    for (const ev of dict.evidences.values()) {
      const q = catalogue.byId.get(`q:${ev.name}`)!;
      assert.deepEqual(questionProblems(q.text), [], q.text);
      const declared = ddxplusAnswerType(ev);
      // A choice question with one value is asked as yes/no (E_204's "no travel" has values, so stays a choice).
      assert.equal(q.answerType, q.options.length === 1 && declared !== 'number' ? 'yes-no' : declared, ev.name);
    }
    assert.equal(catalogue.byId.get('q:E_191')!.text, 'Former smoker?');
    assert.equal(catalogue.byId.get('q:E_221')!.text, 'Pain worse with coughing or straining?');
  });
  it('renders a categorical value as its label and keeps a yes value the question\'s own label', () => {
    const voice = shippedVoice();
    const q130 = 'What color is the rash?';
    assert.equal(voice.label({ text: 'rash color: pink', code: 'E_130', valueCode: 'V_156', question: q130, valueText: 'pink' }), 'Rash colour pink');
    assert.equal(voice.label({ text: 'lesions larger than 1cm: yes', code: 'E_135', valueCode: 'V_12', question: 'Is the lesion (or are the lesions) larger than 1cm?', valueText: 'yes' }), 'Lesions larger than 1 cm');
    assert.equal(voice.label({ text: 'pain intensity (0-10): 7', code: 'E_56', valueCode: '7', question: 'How intense is the pain?', valueText: '7' }), 'Pain intensity 7/10');
  });
  it('leaves another source\'s reuse of a DDXPlus code alone', () => {
    const f = { text: 'Do you have a rash? yes', code: 'E_91', valueCode: null, question: 'Do you have a rash?', valueText: 'yes' };
    assert.equal(shippedVoice().label(f), 'Rash');
    assert.equal(shippedVoice().yesNoQuestion(f), 'Rash?');
  });
  it('does not ask about a feature whose label is not a readable phrase', () => {
    const model = new FollowupModel({
      diseases: [{ id: 'dis:a', name: 'A', recordCount: 5 }],
      features: [
        { id: 'f:1', text: 'x_1 {}', code: null, valueCode: null, question: null, valueText: null, antecedent: null },
        { id: 'f:2', text: 'tender RLQ', code: null, valueCode: null, question: null, valueText: null, antecedent: null },
      ],
      manifestations: [{ diseaseId: 'dis:a', featureId: 'f:1', count: 5, prevalence: 1 }, { diseaseId: 'dis:a', featureId: 'f:2', count: 5, prevalence: 1 }],
    });
    assert.deepEqual(buildQuestionCatalogue(model.features).questions.map((q) => q.text), ['Tender RLQ?']);
  });
  it('rejects a data file whose label is a question', () => {
    const r = parseVoiceData({ version: 1, provenance: 'test', sites: {}, evidences: { E_1: { source: 'Do you cough?', label: 'Do you cough?', question: 'Cough?' } } }, 'test.json');
    assert.ok(!r.ok && r.error.field === 'evidences.E_1.label');
  });
});
