import { strict as assert } from 'node:assert';
import { normalizeAnswer } from '../../src/followups/answers.js';
import { FollowupModel } from '../../src/followups/model.js';
import { posterior, type PosteriorInput } from '../../src/followups/posterior.js';
import { buildQuestionCatalogue } from '../../src/followups/question-model.js';
import { fixtureKg } from '../support/followups-kg.js';

const model = new FollowupModel(fixtureKg(), { alpha: 0.5 });
const catalogue = buildQuestionCatalogue(model.features);
const q = (id: string) => catalogue.byId.get(id)!;
const none: PosteriorInput = { answers: [], evidence: [], demographics: null, prior: null };
const idx = (id: string) => model.diseaseIndex(id)!;
const sum = (p: Float64Array) => p.reduce((s, v) => s + v, 0);

describe('follow-ups: posterior', () => {
  it('starts from the record-count prior and stays normalised', () => {
    const p = posterior(model, none);
    assert.ok(Math.abs(sum(p) - 1) < 1e-12);
    assert.ok(p[idx('dis:a')]! > p[idx('dis:c')]!, 'A has more records than C');
  });
  it('"yes" raises and "no" lowers the diseases that usually have the feature', () => {
    const prior = posterior(model, none);
    const yes = posterior(model, { ...none, answers: [{ question: q('q:E_2'), answer: { type: 'yes' } }] });
    const no = posterior(model, { ...none, answers: [{ question: q('q:E_2'), answer: { type: 'no' } }] });
    assert.ok(yes[idx('dis:a')]! > prior[idx('dis:a')]!);
    assert.ok(no[idx('dis:a')]! < prior[idx('dis:a')]!, 'no fever lowers A (90% fever)');
    assert.ok(no[idx('dis:b')]! > prior[idx('dis:b')]!);
    for (const p of [yes, no]) assert.ok(Math.abs(sum(p) - 1) < 1e-12);
  });
  it('uses 1 - P(f|d) for unchosen options of a several-of question', () => {
    const p = posterior(model, { ...none, answers: [{ question: q('q:E_4'), answer: { type: 'options', optionIds: ['feat:back'] } }] });
    assert.ok(p[idx('dis:b')]! > 0.8, `back pain points to B: ${p[idx('dis:b')]}`);
  });
  it('reads numbers as the categorical value and an answer supersedes description evidence', () => {
    const n = normalizeAnswer(q('q:E_5'), { type: 'number', value: 7 });
    assert.ok(n.ok);
    assert.deepEqual(n.value, { type: 'options', optionIds: ['feat:i8'] });
    const p = posterior(model, { ...none, evidence: [{ featureId: 'feat:i2', present: true }], answers: [{ question: q('q:E_5'), answer: n.value }] });
    assert.ok(p[idx('dis:b')]! > p[idx('dis:a')]!, 'the answer (8) wins over the description (2)');
  });
  it('starts from an upstream prior when given', () => {
    const p = posterior(model, { ...none, prior: Float64Array.from([0.1, 0.1, 0.8]) });
    assert.ok(p[idx('dis:c')]! > 0.7);
  });
});

describe('follow-ups: answers', () => {
  it('validates answers against their question', () => {
    assert.equal(normalizeAnswer(q('q:E_1'), { type: 'options', optionIds: ['feat:cough'] }).ok, false);
    assert.equal(normalizeAnswer(q('q:E_4'), { type: 'yes' }).ok, false);
    assert.equal(normalizeAnswer(q('q:E_4'), { type: 'options', optionIds: ['feat:nope'] }).ok, false);
    const byCode = normalizeAnswer(q('q:E_4'), { type: 'options', optionIds: ['V_2', 'feat:chest', 'V_2'] });
    assert.deepEqual(byCode, { ok: true, value: { type: 'options', optionIds: ['feat:back', 'feat:chest'] } });
    assert.deepEqual(normalizeAnswer(q('q:E_4'), { type: 'options', optionIds: [] }), { ok: true, value: { type: 'no' } });
  });
});
