import { strict as assert } from 'node:assert';
import { ddxplusSampleWithHints } from '../support/ddxplus-sample-hints.js';
import { COLLAPSED_TEMPERING, flattenPosterior, NEGLIGIBLE_GAIN } from '../../src/followups/flatten-posterior.js';
import { informationGain, informationGainRanker } from '../../src/followups/information-gain.js';
import { FollowupModel } from '../../src/followups/model.js';
import { posterior } from '../../src/followups/posterior.js';
import { buildQuestionCatalogue } from '../../src/followups/question-model.js';
import { openQuestions, type RankContext } from '../../src/followups/ranker.js';
import { followupKgFromSnapshot } from '../../src/followups/snapshot-kg.js';

describe('follow-ups on a collapsed differential (a long note: one disease live)', function () {
  this.timeout(60_000);

  it('tempering keeps the order of the ten likeliest, brings the 10th to the ratio of the first, and drops the rest', () => {
    const p = Float64Array.from([1 - 2e-8, 1e-8, 0, 5e-9, ...Array.from({ length: 12 }, (_, i) => 10 ** -(10 + i))]);
    const flat = flattenPosterior(p, COLLAPSED_TEMPERING)!;
    const order = (x: Float64Array) => [...x.keys()].sort((a, b) => x[b]! - x[a]! || a - b);
    assert.deepEqual(order(flat).slice(0, 10), order(p).slice(0, 10));
    assert.equal(flat[2], 0, 'an impossible disease stays impossible');
    assert.equal(flat.filter((v) => v > 0).length, 10, 'only the differential\'s ten are scored against');
    assert.ok(Math.abs(flat.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    const tenth = order(flat)[9]!;
    assert.ok(Math.abs(flat[tenth]! / flat[0]! - COLLAPSED_TEMPERING.ratio) < 1e-9, `10th / 1st = ${flat[tenth]! / flat[0]!}`);
    assert.equal(flattenPosterior(Float64Array.from([1, 0, 0]), COLLAPSED_TEMPERING), null, 'one possible disease: nothing to separate');
    // Already spread out: T stays 1 (the posterior itself).
    assert.deepEqual([...flattenPosterior(Float64Array.from([0.5, 0.3, 0.2]), COLLAPSED_TEMPERING)!].map((v) => +v.toFixed(12)), [0.5, 0.3, 0.2]);
  });

  it('a whole record asks what separates the first disease from its runners-up, not the catalogue\'s first ids', async () => {
    const { snapshot, cases, hints } = await ddxplusSampleWithHints(6);
    const model = new FollowupModel(followupKgFromSnapshot(snapshot));
    const catalogue = buildQuestionCatalogue(model.features, { hints });
    const firstIds = [...catalogue.questions].map((q) => q.id).sort((a, b) => a.localeCompare(b));
    let collapsed = 0;
    for (const c of cases) {
      const evidence = c.present.map((f) => ({ featureId: snapshot.features[f]!.id, present: true }));
      const p = posterior(model, { answers: [], evidence, demographics: null, prior: null });
      const ctx: RankContext = { model, catalogue, posterior: p, asked: new Set(), knownFeatures: new Set(evidence.map((e) => e.featureId)), candidateDiseases: null };
      if (!openQuestions(ctx).every((q) => informationGain(ctx, q) < NEGLIGIBLE_GAIN)) continue;
      collapsed++;
      const ranked = informationGainRanker().rank(ctx, 5);
      assert.equal(ranked.length, 5);
      for (const s of ranked) assert.ok(s.score >= NEGLIGIBLE_GAIN, `${s.question.id} scored ${s.score}`);
      assert.notDeepEqual(ranked.map((s) => s.question.id), firstIds.filter((id) => openQuestions(ctx).some((q) => q.id === id)).slice(0, 5));
    }
    assert.ok(collapsed > 0, 'some whole records collapse the posterior');
  });
});
