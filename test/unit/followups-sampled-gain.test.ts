import { strict as assert } from 'node:assert';
import { ddxplusSampleWithHints } from '../support/ddxplus-sample-hints.js';
import { informationGain, informationGainRanker } from '../../src/followups/information-gain.js';
import { FollowupModel } from '../../src/followups/model.js';
import { addBernoulli, answerLogLikelihood, posterior } from '../../src/followups/posterior.js';
import { buildQuestionCatalogue, type Question } from '../../src/followups/question-model.js';
import { openQuestions, type RankContext } from '../../src/followups/ranker.js';
import { COLLAPSED_TEMPERING, flattenPosterior, NEGLIGIBLE_GAIN } from '../../src/followups/flatten-posterior.js';
import { hashString, seededRandom } from '../../src/followups/rng.js';
import { followupKgFromSnapshot } from '../../src/followups/snapshot-kg.js';
import { RowCache } from '../../src/followups/sparse-rows.js';

/**
 * A several-of question's gain is sampled (information-gain.ts); each answer pattern's entropy is
 * now computed once per question. The oracle below is the per-sample loop it replaced, written
 * out: the gains must be the same numbers, bit for bit, on the DDXPlus sample's questions.
 */
const MIN_P = 1e-4;
const SAMPLES = 6;

function entropy(p: Float64Array, l: ArrayLike<number>, live: readonly number[]): number {
  let mass = 0;
  for (const i of live) mass += p[i]! * l[i]!;
  if (mass <= 0) return 0;
  let h = 0;
  for (const i of live) {
    const q = (p[i]! * l[i]!) / mass;
    if (q > 0) h -= q * Math.log(q);
  }
  return h;
}

function oracleGain(ctx: RankContext, q: Question): number {
  const live = [...ctx.posterior.keys()].filter((i) => ctx.posterior[i]! >= MIN_P);
  const h0 = entropy(ctx.posterior, new Float64Array(ctx.posterior.length).fill(1), live);
  const shown = new Set<string>();
  for (const d of live) for (const f of ctx.model.featuresOf(d)) if (ctx.model.countAt(f, d) > 0) shown.add(f);
  const probs = q.options.filter((o) => shown.has(o.featureId)).map((o) => ctx.model.bernoulli(o.featureId));
  if (probs.length === 0) return 0;
  const base = new Float64Array(ctx.posterior.length);
  const delta = probs.map((p) => {
    const row = new Float64Array(p.length);
    for (const i of live) {
      base[i]! += Math.log(1 - p[i]!);
      row[i] = Math.log(p[i]!) - Math.log(1 - p[i]!);
    }
    return row;
  });
  const rand = seededRandom(hashString(q.id));
  const l = new Float64Array(ctx.posterior.length);
  let expected = 0;
  let total = 0;
  for (const d of live) {
    for (let s = 0; s < SAMPLES; s++) {
      for (const i of live) l[i] = base[i]!;
      probs.forEach((p, k) => {
        if (rand() < p[d]!) for (const i of live) l[i]! += delta[k]![i]!;
      });
      let max = -Infinity;
      for (const i of live) max = Math.max(max, l[i]!);
      for (const i of live) l[i] = Math.exp(l[i]! - max);
      const w = ctx.posterior[d]! / SAMPLES;
      expected += w * entropy(ctx.posterior, l, live);
      total += w;
    }
  }
  return Math.max(0, h0 - expected / total);
}

/** The reported feature: the option whose P(f | d) varies most over the live diseases (first of the never-shown ones only). */
function oracleFeature(ctx: RankContext, q: Question): string {
  const live = [...ctx.posterior.keys()].filter((i) => ctx.posterior[i]! >= MIN_P);
  const shown = new Set<string>();
  for (const d of live) for (const f of ctx.model.featuresOf(d)) if (ctx.model.countAt(f, d) > 0) shown.add(f);
  let best = q.options[0]!.featureId;
  let bestVar = -1;
  let untouchedDone = false;
  for (const o of q.options) {
    if (!shown.has(o.featureId)) {
      if (untouchedDone) continue;
      untouchedDone = true;
    }
    const p = Float64Array.from(live, (i) => ctx.model.bernoulliAt(o.featureId, i));
    let mean = 0;
    live.forEach((i, k) => (mean += ctx.posterior[i]! * p[k]!));
    let v = 0;
    live.forEach((i, k) => (v += ctx.posterior[i]! * (p[k]! - mean) ** 2));
    if (v > bestVar) [best, bestVar] = [o.featureId, v];
  }
  return best;
}

describe('follow-ups: a several-of question\'s sampled gain, each answer pattern\'s entropy computed once', function () {
  this.timeout(60_000);

  it('equals the per-sample loop bit for bit on the DDXPlus sample (every several-of question, several posteriors), and reports the same feature', async () => {
    const { snapshot, cases, hints } = await ddxplusSampleWithHints(6);
    const model = new FollowupModel(followupKgFromSnapshot(snapshot));
    const catalogue = buildQuestionCatalogue(model.features, { hints });
    const severalOf = catalogue.questions.filter((q) => q.answerType === 'several-of' && q.options.length > 1);
    assert.ok(severalOf.length >= 3, `${severalOf.length} several-of questions`);
    let positive = 0;
    let withOptions = 0;
    let collapsedSeen = 0;
    for (const c of [null, ...cases]) {
      const evidence = (c?.present ?? []).map((f) => ({ featureId: snapshot.features[f]!.id, present: true }));
      const p = posterior(model, { answers: [], evidence, demographics: null, prior: null });
      const ctx: RankContext = { model, catalogue, posterior: p, asked: new Set(), knownFeatures: new Set(), candidateDiseases: null };
      for (const q of severalOf) {
        const want = oracleGain(ctx, q);
        assert.equal(informationGain(ctx, q), want, q.id);
        if (want > 0) positive++;
      }
      // The ranked questions report the same feature as the plain variance loop (several-of ones pick among options).
      const ranked = informationGainRanker().rank(ctx, 10);
      withOptions += ranked.filter((s) => s.question.options.length > 1).length;
      // A collapsed posterior (every gain negligible) is ranked tempered (flatten-posterior.ts): the feature is read there.
      const flat = flattenPosterior(p, COLLAPSED_TEMPERING);
      const collapsed = flat !== null && openQuestions(ctx).every((q) => informationGain(ctx, q) < NEGLIGIBLE_GAIN);
      if (collapsed) collapsedSeen++;
      const used = collapsed ? { ...ctx, posterior: flat } : ctx;
      for (const s of ranked) assert.equal(s.featureId, oracleFeature(used, s.question), s.question.id);
    }
    assert.ok(positive > severalOf.length, `${positive} positive gains compared`);
    assert.ok(withOptions > 0, 'ranked questions with options among those compared');
    assert.ok(collapsedSeen > 0 && collapsedSeen < cases.length + 1, `${collapsedSeen} collapsed posteriors among those compared`);
  });

  it('the model\'s cached log rows are the logs of its Bernoulli rows, and an answer\'s likelihood sums them as addBernoulli does', async () => {
    const { snapshot, hints } = await ddxplusSampleWithHints(1);
    const model = new FollowupModel(followupKgFromSnapshot(snapshot));
    for (const f of model.features) {
      const p = model.bernoulli(f.id);
      assert.deepEqual(model.logBernoulli(f.id, 'present'), p.map((x) => Math.log(x)), f.id);
      assert.deepEqual(model.logBernoulli(f.id, 'absent'), p.map((x) => Math.log(1 - x)), f.id);
      assert.deepEqual(model.logBernoulli(f.id, 'logit'), p.map((x) => Math.log(x) - Math.log(1 - x)), f.id);
    }
    const questions = buildQuestionCatalogue(model.features, { hints }).questions.filter((q) => q.answerType === 'several-of' || q.answerType === 'yes-no');
    assert.ok(questions.some((q) => q.options.length > 2));
    for (const q of questions) {
      const picked = q.options.filter((_, i) => i % 2 === 0).map((o) => o.featureId);
      const answer = q.answerType === 'yes-no' ? { type: 'yes' as const } : { type: 'options' as const, optionIds: picked };
      const chosen = new Set(q.answerType === 'yes-no' ? q.options.map((o) => o.featureId) : picked);
      const want = new Float64Array(model.diseases.length);
      for (const o of q.options) addBernoulli(want, model.bernoulli(o.featureId), chosen.has(o.featureId));
      assert.deepEqual(answerLogLikelihood(model, q, answer), want, q.id);
    }
  });

  it('the row cache keeps a row per (space, key), least recently used first out across spaces', () => {
    const cache = new RowCache(3 * 80);
    const made: string[] = [];
    const get = (space: string, k: string) => cache.get(k, () => (made.push(`${space}:${k}`), new Float64Array(10).fill(made.length)), space);
    const a = get('p', 'f1');
    assert.notEqual(get('logit', 'f1'), a, 'the same key in another space is another row');
    get('p', 'f2');
    assert.equal(get('p', 'f1'), a, 'a hit returns the cached row');
    get('absent', 'f1'); // over the bound: the least recently used, logit:f1, goes
    assert.deepEqual(made, ['p:f1', 'logit:f1', 'p:f2', 'absent:f1']);
    get('p', 'f1'); get('p', 'f2'); get('absent', 'f1');
    assert.equal(made.length, 4, 'the three most recent stayed');
    get('logit', 'f1');
    assert.deepEqual(made.slice(4), ['logit:f1']);
  });
});
