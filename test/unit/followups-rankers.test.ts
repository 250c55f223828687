import { strict as assert } from 'node:assert';
import { FollowupEngine, type PatientState } from '../../src/followups/engine.js';
import { informationGain } from '../../src/followups/information-gain.js';
import { FollowupModel } from '../../src/followups/model.js';
import { buildQuestionCatalogue } from '../../src/followups/question-model.js';
import { createRanker, type RankContext } from '../../src/followups/ranker.js';
import { fixtureKg } from '../support/followups-kg.js';

const model = new FollowupModel(fixtureKg(), { alpha: 0.5 });
const catalogue = buildQuestionCatalogue(model.features);
const ctx = (posterior: number[], over: Partial<RankContext> = {}): RankContext => ({
  model, catalogue, posterior: Float64Array.from(posterior), asked: new Set(), knownFeatures: new Set(), candidateDiseases: null, ...over,
});

describe('follow-ups: question catalogue', () => {
  it('groups features by source question with stable ids and inferred answer types', () => {
    assert.deepEqual(catalogue.questions.map((q) => q.id), ['q:E_1', 'q:E_2', 'q:E_3', 'q:E_4', 'q:E_5']);
    const loc = catalogue.byId.get('q:E_4')!;
    assert.equal(loc.text, 'Where is the pain located?');
    assert.equal(loc.answerType, 'several-of');
    assert.deepEqual(loc.options.map((o) => o.label), ['back', 'chest']);
    assert.equal(catalogue.byId.get('q:E_5')!.answerType, 'number');
    assert.equal(catalogue.byId.get('q:E_1')!.answerType, 'yes-no');
    assert.equal(catalogue.byFeature.get('feat:chest')!.id, 'q:E_4');
  });
  it('takes declared answer types over inference', () => {
    const c = buildQuestionCatalogue(model.features, { hints: new Map([['E_4', 'one-of' as const]]) });
    assert.equal(c.byId.get('q:E_4')!.answerType, 'one-of');
  });
});

describe('follow-ups: sigma ranker (MedRAG eq. 15-16)', () => {
  const sigma = createRanker('sigma');
  it('scores (n-1)/deg and puts degree-1 features of candidates first', () => {
    const r = sigma.rank(ctx([0.4, 0.4, 0.2]), 10);
    const n = model.features.length;
    const byId = new Map(r.map((s) => [s.question.id, s]));
    assert.equal(byId.get('q:E_1')!.score, (n - 1) / 3); // cough: 3 diseases
    assert.equal(byId.get('q:E_2')!.score, (n - 1) / 2); // fever: A and B
    assert.equal(byId.get('q:E_3')!.score, n - 1); // rash: only C
    assert.ok(r[0]!.score === n - 1);
    assert.ok(r.findIndex((s) => s.question.id === 'q:E_1') > r.findIndex((s) => s.question.id === 'q:E_2'));
  });
  it('only asks about candidate diseases and skips answered questions and known features', () => {
    const r = sigma.rank(ctx([0.5, 0.5, 0], { candidateDiseases: ['dis:a', 'dis:b'] }), 10);
    assert.ok(!r.some((s) => s.question.id === 'q:E_3'), 'rash belongs to C only, not a candidate');
    const r2 = sigma.rank(ctx([0.4, 0.4, 0.2], { asked: new Set(['q:E_3']), knownFeatures: new Set(['feat:fever']) }), 10);
    assert.ok(!r2.some((s) => s.question.id === 'q:E_3' || s.question.id === 'q:E_2'));
  });
});

describe('follow-ups: information-gain ranker', () => {
  it('prefers the question that separates the live candidates', () => {
    // A vs B, C ruled out: fever (90% vs 10%) separates them, cough (90% vs 90%) does not.
    const c = ctx([0.5, 0.5, 0]);
    const fever = informationGain(c, catalogue.byId.get('q:E_2')!);
    const cough = informationGain(c, catalogue.byId.get('q:E_1')!);
    assert.ok(fever > 0.3, `fever IG ${fever}`);
    assert.ok(cough < 0.01, `cough IG ${cough}`);
    const top = createRanker('information-gain').rank(c, 5).map((s) => s.question.id);
    assert.ok(top.indexOf('q:E_2') < top.indexOf('q:E_1'));
    assert.notEqual(top[0], 'q:E_1');
  });
  it('gives no gain when one disease is certain, and is bounded by the entropy', () => {
    assert.ok(informationGain(ctx([1, 0, 0]), catalogue.byId.get('q:E_2')!) < 1e-9);
    const h = Math.log(3);
    for (const q of catalogue.questions) assert.ok(informationGain(ctx([1 / 3, 1 / 3, 1 / 3]), q) <= h + 1e-9);
  });
  it('estimates several-of questions by sampling, deterministically', () => {
    const q = catalogue.byId.get('q:E_4')!;
    const a = informationGain(ctx([0.5, 0.5, 0]), q);
    assert.equal(a, informationGain(ctx([0.5, 0.5, 0]), q));
    assert.ok(a > 0.2, `location separates A (chest) from B (back): ${a}`);
  });
});

describe('follow-ups: engine', () => {
  const engine = new FollowupEngine(model, catalogue);
  const base: PatientState = { evidence: [], answers: [], demographics: null, prior: null, candidateDiseases: null };
  it('signals stop once the top disease passes the confidence', () => {
    const q = catalogue.byId.get('q:E_3')!;
    const a = engine.assess({ ...base, answers: [{ question: q, answer: { type: 'yes' } }] }, { ranker: 'information-gain', questions: 3, differential: 3, confidence: 0.9 });
    assert.equal(a.differential[0]!.diseaseId, 'dis:c');
    assert.equal(a.stop.stop, true);
    assert.equal(a.stop.reason, 'confident');
    const b = engine.assess(base, { ranker: 'information-gain', questions: 3, differential: 3, confidence: 0.9 });
    assert.equal(b.stop.stop, false);
    assert.equal(b.questions.length, 3);
  });
});

describe('follow-ups: the pipeline FollowUpRanker port', () => {
  it('ranks grouped questions over a KgSnapshot, skipping reported features', async () => {
    const { buildSnapshot } = await import('../../src/query/kg-snapshot.js');
    const { EngineFollowUpRanker } = await import('../../src/followups/pipeline-ranker.js');
    const kg = fixtureKg();
    const snapshot = buildSnapshot({
      categories: [],
      subcategories: [],
      diseases: kg.diseases.map((d) => ({ ...d, subcategoryId: '', icd10: null, aliases: [] })),
      features: kg.features.map((f) => ({ ...f, kind: 'ehr' as const })),
      manifestations: kg.manifestations.map((m) => ({ ...m, source: 'ehr' as const })),
    });
    const out = new EngineFollowUpRanker().rank({ snapshot, candidateDiseases: [0, 1], reportedFeatureIds: new Set(['feat:cough']), limit: 3 });
    assert.equal(out.length, 3);
    assert.ok(out.every((q) => q.ranker === 'information-gain' && q.id.startsWith('q:E_')));
    assert.ok(!out.some((q) => q.id === 'q:E_1'));
    assert.ok(out[0]!.score >= out[2]!.score);
  });
});
