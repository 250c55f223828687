/**
 * The differential as a posterior over diseases, updated by answers (naive Bayes):
 * log p(d | answers) = log p(d) + Σ log L(answer | d) + const. A "no" is evidence too:
 * its likelihood is 1 − P(f | d), so it lowers diseases that usually have the feature.
 */
import type { AnswerValue, QuestionAnswer } from './answers.js';
import type { Demographics } from './demographics.js';
import type { FollowupModel } from './model.js';
import type { Question } from './question-model.js';
import { topKBy } from '../reasoners/top-k.js';

/** A feature known from the first description (matched text or a coded finding). */
export interface FeatureEvidence {
  featureId: string;
  present: boolean;
}

export interface PosteriorInput {
  answers: readonly QuestionAnswer[];
  evidence: readonly FeatureEvidence[];
  demographics: Demographics | null;
  /** Probabilities from an upstream reasoner to start from instead of the KG prior (index-aligned). */
  prior: Float64Array | null;
}

/** log L(answer | d) per disease; null when the answer carries no evidence ("unknown"). */
export function answerLogLikelihood(model: FollowupModel, q: Question, a: AnswerValue): Float64Array | null {
  if (a.type === 'unknown' || a.type === 'number') return null; // numbers are normalised to options first
  const chosen = new Set(a.type === 'options' ? a.optionIds : a.type === 'yes' ? q.options.map((o) => o.featureId) : []);
  const out = new Float64Array(model.diseases.length);
  if (q.answerType === 'one-of' || q.answerType === 'number') {
    // Mutually exclusive values: P(v | d), or P(none | d) for "no".
    const rows = model.categorical(q.options.map((o) => o.featureId));
    const k = q.options.findIndex((o) => chosen.has(o.featureId));
    const row = rows[k >= 0 ? k : rows.length - 1]!;
    for (let i = 0; i < out.length; i++) out[i] = Math.log(row[i]!);
    return out;
  }
  // yes/no and several-of: each option is an independent Bernoulli feature.
  // log P(f | d) or log(1 − P(f | d)) per disease, read from the model's cached log rows (the same values).
  for (const o of q.options) {
    const row = model.logBernoulli(o.featureId, chosen.has(o.featureId) ? 'present' : 'absent');
    for (let i = 0; i < out.length; i++) out[i]! += row[i]!;
  }
  return out;
}

/** The definition the cached log rows stand for: acc += log P(f | d), or log(1 − P(f | d)) when absent. */
export function addBernoulli(acc: Float64Array, p: Float64Array, present: boolean): void {
  for (let i = 0; i < acc.length; i++) acc[i]! += Math.log(present ? p[i]! : 1 - p[i]!);
}

/** addBernoulli of a model feature, with the diseases that never showed it read from the model's log table (same values, no log per disease). */
export function addFeatureEvidence(acc: Float64Array, model: FollowupModel, featureId: string, present: boolean): void {
  const nz = model.nonzeroCounts(featureId);
  const u = present ? model.logUnseen.present : model.logUnseen.absent;
  // Walks the sparse row beside the diseases: no dense row per evidence feature (gigabytes at 20,000 × 5,000).
  let k = 0;
  for (let i = 0; i < acc.length; i++) {
    const c = nz && k < nz.idx.length && nz.idx[k] === i ? nz.val[k++]! : 0;
    if (c <= 0) acc[i]! += u[i]!;
    else {
      const p = model.bernoulliOfCount(c, i);
      acc[i]! += Math.log(present ? p : 1 - p);
    }
  }
}

/** Unnormalised log posterior (sum of the prior and every piece of evidence). */
export function logPosterior(model: FollowupModel, input: PosteriorInput): Float64Array {
  const acc = input.prior ? Float64Array.from(input.prior, (p) => Math.log(Math.max(p, 1e-9))) : Float64Array.from(model.logPrior);
  if (input.demographics && model.demographics) {
    const demo = model.demographics.logLikelihood(input.demographics);
    for (let i = 0; i < acc.length; i++) acc[i]! += demo[i]!;
  }
  // An answer supersedes first-description evidence about the same question's features.
  const answered = new Set(input.answers.flatMap((qa) => qa.question.options.map((o) => o.featureId)));
  for (const e of input.evidence) {
    if (answered.has(e.featureId) || model.feature(e.featureId) === undefined) continue;
    addFeatureEvidence(acc, model, e.featureId, e.present);
  }
  for (const qa of input.answers) {
    const ll = answerLogLikelihood(model, qa.question, qa.answer);
    if (ll) for (let i = 0; i < acc.length; i++) acc[i]! += ll[i]!;
  }
  return acc;
}

/** Softmax in place-safe form: probabilities summing to 1. */
export function normalizeLog(logp: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of logp) if (v > max) max = v;
  const out = Float64Array.from(logp, (v) => Math.exp(v - max));
  const z = out.reduce((s, v) => s + v, 0);
  for (let i = 0; i < out.length; i++) out[i]! /= z;
  return out;
}

export function posterior(model: FollowupModel, input: PosteriorInput): Float64Array {
  return normalizeLog(logPosterior(model, input));
}

export interface DifferentialEntry {
  diseaseId: string;
  disease: string;
  probability: number;
}

export function rankDifferential(model: FollowupModel, probs: Float64Array, limit: number): DifferentialEntry[] {
  // A selection, not a sort of every disease: a turn lists a few of thousands.
  const better = (a: number, b: number) => probs[a]! > probs[b]! || (probs[a] === probs[b] && model.diseases[a]!.id.localeCompare(model.diseases[b]!.id) < 0);
  return topKBy(probs.length, limit, better).map((i) => ({ diseaseId: model.diseases[i]!.id, disease: model.diseases[i]!.name, probability: probs[i]! }));
}

/** Shannon entropy in nats. */
export function entropy(p: ArrayLike<number>): number {
  let h = 0;
  for (let i = 0; i < p.length; i++) if (p[i]! > 0) h -= p[i]! * Math.log(p[i]!);
  return h;
}
