/**
 * Information-gain ranker: IG(q) = H(D) − Σ_a P(a) · H(D | a), with
 * P(a) = Σ_d p(d) · P(a | d) from the KG's smoothed prevalences P(f | d).
 *
 * Answer distributions:
 *  - yes/no: P(yes | d) = P(f | d), P(no | d) = 1 − P(f | d)   (exact)
 *  - one-of / number: the grouped categorical P(v | d) plus "none"   (exact)
 *  - several-of: options are independent Bernoullis given d (the same naive-Bayes
 *    assumption the posterior makes), so the answer space is 2^K. It is approximated
 *    by stratified Monte Carlo: `samplesPerDisease` answer vectors drawn from each live
 *    disease, weighted by p(d); seeded by the question id, hence deterministic.
 * Diseases below `minProbability` are dropped from the sums (their share of the
 * entropy is negligible) to keep a turn cheap, and at most `maxLive` of the likeliest
 * are kept: after a few "no" answers a 1,000-diagnosis KG's posterior spreads over every
 * disease, and a turn then cost what the whole KG touches (docs/benchmarks.md, issue 29).
 * A DDXPlus-sized KG (49) never reaches the cap.
 */
import { openQuestions, type FollowupRanker, type RankContext, type ScoredQuestion } from './ranker.js';
import { hashString, seededRandom } from './rng.js';
import type { Question } from './question-model.js';
import { liveCandidates } from './information-gain-live.js';
import { expectedEntropyYesNo, yesNoBaseline, type YesNoBaseline } from './gain-yes-no.js';
import { COLLAPSED_TEMPERING, flattenPosterior, NEGLIGIBLE_GAIN } from './flatten-posterior.js';

export interface InformationGainOptions {
  minProbability: number;
  /** The live set's size cap (likeliest first; ties by disease index). */
  maxLive: number;
  samplesPerDisease: number;
  /** Score every open question (the reference) instead of the live diseases' ones plus one per shape (information-gain-live.ts). */
  exhaustive?: boolean;
}

const DEFAULTS: InformationGainOptions = { minProbability: 1e-4, maxLive: 256, samplesPerDisease: 6, exhaustive: false };

/** Entropy (nats) of p restricted to `live`, weighted by likelihood row `l`; also returns the mass. */
function weightedEntropy(p: Float64Array, l: ArrayLike<number>, live: readonly number[]): { mass: number; h: number } {
  let mass = 0;
  for (const i of live) mass += p[i]! * l[i]!;
  if (mass <= 0) return { mass: 0, h: 0 };
  let h = 0;
  for (const i of live) {
    const q = (p[i]! * l[i]!) / mass;
    if (q > 0) h -= q * Math.log(q);
  }
  return { mass, h };
}

/** Expected posterior entropy over an exact answer distribution (rows: P(a | d)). */
function expectedEntropyExact(p: Float64Array, rows: readonly ArrayLike<number>[], live: readonly number[]): number {
  return rows.reduce((s, row) => {
    const { mass, h } = weightedEntropy(p, row, live);
    return s + mass * h;
  }, 0);
}

function expectedEntropySampled(ctx: RankContext, q: Question, live: readonly number[], samples: number): number {
  // Options no live disease has ever shown carry (almost) no information: skip them.
  const shown = liveFeatures(ctx, live);
  const opts = q.options.filter((o) => shown.has(o.featureId));
  if (opts.length === 0) return Infinity;
  const probs = opts.map((o) => ctx.model.bernoulli(o.featureId));
  // log L(all absent) once; a sampled "present" option then adds log p − log(1 − p) (answers are sparse).
  const base = new Float64Array(ctx.posterior.length);
  const delta = opts.map((o) => {
    const log1m = ctx.model.logBernoulli(o.featureId, 'absent');
    for (const i of live) base[i]! += log1m[i]!;
    return ctx.model.logBernoulli(o.featureId, 'logit');
  });
  const rand = seededRandom(hashString(q.id));
  const l = new Float64Array(ctx.posterior.length);
  // A sample's entropy depends only on which options it drew present (the rows are added in
  // option order), and answers are sparse: most draws repeat a handful of patterns, so each
  // pattern's entropy is computed once. The draws themselves are unchanged (one per option).
  const entropyOf = new Map<number | string, number>();
  const hits: number[] = [];
  // The pattern's key: a bit mask while it is exact in a double (52 options), the indices joined past that.
  const asMask = probs.length <= 52;
  let expected = 0;
  let total = 0;
  for (const d of live) {
    for (let s = 0; s < samples; s++) {
      hits.length = 0;
      let mask = 0;
      for (let k = 0; k < probs.length; k++) {
        if (rand() < probs[k]![d]!) {
          hits.push(k);
          mask += 2 ** k;
        }
      }
      const key = asMask ? mask : hits.join(',');
      let h = entropyOf.get(key);
      if (h === undefined) {
        h = sampleEntropy(ctx.posterior, base, delta, hits, live, l);
        entropyOf.set(key, h);
      }
      const w = ctx.posterior[d]! / samples;
      expected += w * h;
      total += w;
    }
  }
  return expected / total;
}

/** Posterior entropy after the options `hits` were answered present and the others absent (log-likelihoods base + delta rows; `l` is scratch). */
function sampleEntropy(p: Float64Array, base: Float64Array, delta: readonly Float64Array[], hits: readonly number[], live: readonly number[], l: Float64Array): number {
  for (const i of live) l[i] = base[i]!;
  for (const k of hits) for (const i of live) l[i]! += delta[k]![i]!;
  let max = -Infinity;
  for (const i of live) max = Math.max(max, l[i]!);
  for (const i of live) l[i] = Math.exp(l[i]! - max);
  return weightedEntropy(p, l, live).h;
}

interface Prepared {
  live: number[];
  h0: number;
  yesNo: YesNoBaseline;
}

function prepare(ctx: RankContext, opts: InformationGainOptions): Prepared {
  let live = [...ctx.posterior.keys()].filter((i) => ctx.posterior[i]! >= opts.minProbability);
  if (live.length > opts.maxLive) live = live.sort((a, b) => ctx.posterior[b]! - ctx.posterior[a]! || a - b).slice(0, opts.maxLive).sort((a, b) => a - b);
  const ones = new Float64Array(ctx.posterior.length).fill(1);
  return { live, h0: weightedEntropy(ctx.posterior, ones, live).h, yesNo: yesNoBaseline(ctx.model, ctx.posterior, live) };
}

function gain(ctx: RankContext, q: Question, opts: InformationGainOptions, { live, h0, yesNo }: Prepared): number {
  let expected: number;
  if (q.answerType === 'several-of' && q.options.length > 1) {
    expected = expectedEntropySampled(ctx, q, live, opts.samplesPerDisease);
  } else {
    // Exact: enumerate the answers (yes/no, or each option + none) with the posterior's likelihoods.
    if (q.answerType === 'yes-no' || q.answerType === 'several-of') {
      // Corrected at the feature's own edges only (gain-yes-no.ts): the same sums, O(edges).
      expected = expectedEntropyYesNo(ctx.model, ctx.posterior, yesNo, q.options[0]!.featureId);
    } else {
      expected = expectedEntropyExact(ctx.posterior, ctx.model.categorical(q.options.map((o) => o.featureId)), live);
    }
  }
  return Number.isFinite(expected) ? Math.max(0, h0 - expected) : 0;
}

export function informationGain(ctx: RankContext, q: Question, opts: InformationGainOptions = DEFAULTS): number {
  return gain(ctx, q, opts, prepare(ctx, opts));
}

export function informationGainRanker(opts: Partial<InformationGainOptions> = {}): FollowupRanker {
  const o = { ...DEFAULTS, ...opts };
  return {
    name: 'information-gain',
    rank(ctx, limit) {
      // One live disease: every gain is 0 before any is computed; else the gains say whether it collapsed.
      let live = 0;
      for (const p of ctx.posterior) if (p >= o.minProbability && ++live > 1) break;
      const ranked = live > 1 ? rankOn(ctx, limit, o) : null;
      // A collapsed posterior gives every question a zero gain (flatten-posterior.ts): rank on it tempered.
      if (ranked !== null && (ranked.length === 0 || ranked[0]!.score >= NEGLIGIBLE_GAIN)) return ranked;
      const flat = flattenPosterior(ctx.posterior, COLLAPSED_TEMPERING);
      return flat === null ? (ranked ?? rankOn(ctx, limit, o)) : rankOn({ ...ctx, posterior: flat }, limit, o);
    },
  };
}

function rankOn(ctx: RankContext, limit: number, o: InformationGainOptions): ScoredQuestion[] {
  const prep = prepare(ctx, o);
  const gainOf = (q: Question) => gain(ctx, q, o, prep);
  const scored = o.exhaustive ? openQuestions(ctx).map((q) => ({ question: q, score: gainOf(q) })) : liveCandidates(ctx, prep.live, limit, gainOf);
  scored.sort((a, b) => b.score - a.score || a.question.id.localeCompare(b.question.id));
  return scored.slice(0, limit).map((s): ScoredQuestion => ({ ...s, ranker: 'information-gain', featureId: bestFeature(ctx, s.question, prep.live) }));
}

/**
 * The option whose prevalence varies most across the live differential (reported as the question's
 * feature). An option no live disease has shown has P(f | d) = p0(d) at every live disease, so all
 * such options share one variance: it is computed once, for the first of them (the loop's tie
 * order), and a question of thousands of values (a coded column of lab codes) costs what its
 * live options touch.
 */
function bestFeature(ctx: RankContext, q: Question, live: readonly number[]): string {
  if (q.options.length === 1) return q.options[0]!.featureId;
  const shown = liveFeatures(ctx, live);
  let best = (q.options.find((o) => !ctx.knownFeatures.has(o.featureId)) ?? q.options[0]!).featureId;
  let bestVar = -1;
  let untouchedDone = false;
  const post = ctx.posterior;
  const p = new Float64Array(live.length);
  for (const o of q.options) {
    // An option the description already gave is not what the question asks about.
    if (ctx.knownFeatures.has(o.featureId)) continue;
    if (!shown.has(o.featureId)) {
      if (untouchedDone) continue;
      untouchedDone = true;
    }
    // P(f | d) read once per live disease (each read is a binary search), then mean and variance
    // (plain loops into one scratch row: Float64Array.from's iterator and the callbacks were most of the cost).
    for (let k = 0; k < live.length; k++) p[k] = ctx.model.bernoulliAt(o.featureId, live[k]!);
    let mean = 0;
    for (let k = 0; k < live.length; k++) mean += post[live[k]!]! * p[k]!;
    let v = 0;
    for (let k = 0; k < live.length; k++) v += post[live[k]!]! * (p[k]! - mean) ** 2;
    if (v > bestVar) [best, bestVar] = [o.featureId, v];
  }
  return best;
}

const liveFeatureSets = new WeakMap<Float64Array, { live: readonly number[]; shown: Set<string> }>();

/** Every feature some live disease has shown (built once per ranking: what the live diseases touch, not the vocabulary). */
function liveFeatures(ctx: RankContext, live: readonly number[]): Set<string> {
  const hit = liveFeatureSets.get(ctx.posterior);
  if (hit && hit.live === live) return hit.shown;
  const shown = new Set<string>();
  for (const d of live) for (const f of ctx.model.featuresOf(d)) if (ctx.model.countAt(f, d) > 0) shown.add(f);
  liveFeatureSets.set(ctx.posterior, { live, shown });
  return shown;
}
