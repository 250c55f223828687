/**
 * One interface for choosing the next follow-up questions, with three implementations:
 * `sigma` (MedRAG's discriminability), `information-gain` (expected entropy reduction of
 * the differential) and `random` (a seeded baseline for the benchmark).
 */
import type { FollowupModel } from './model.js';
import type { Question, QuestionCatalogue } from './question-model.js';
import { informationGainRanker } from './information-gain.js';
import { randomRanker } from './random-ranker.js';
import { sigmaRanker } from './sigma.js';

export const RANKER_NAMES = ['information-gain', 'sigma', 'random'] as const;
export type RankerName = (typeof RANKER_NAMES)[number];

export interface RankContext {
  model: FollowupModel;
  catalogue: QuestionCatalogue;
  /** Current differential, index-aligned with `model.diseases`, summing to 1. */
  posterior: Float64Array;
  /** Question ids already asked (answered, even "unknown"). */
  asked: ReadonlySet<string>;
  /** Features already known from the first description (not asked about again). */
  knownFeatures: ReadonlySet<string>;
  /** Restrict to these candidate diseases (e.g. the chosen subcategory's); null = from the posterior. */
  candidateDiseases: readonly string[] | null;
}

export interface ScoredQuestion {
  question: Question;
  score: number;
  ranker: RankerName;
  /** The feature that drove the score (the most discriminative option). */
  featureId: string;
}

export interface FollowupRanker {
  readonly name: RankerName;
  /** Best first; at most `limit`. */
  rank(ctx: RankContext, limit: number): ScoredQuestion[];
}

/** Questions still worth asking: not asked, and not fully known from the description. */
export function openQuestions(ctx: RankContext): Question[] {
  return ctx.catalogue.questions.filter((q) => !ctx.asked.has(q.id) && !q.options.every((o) => ctx.knownFeatures.has(o.featureId)));
}

/**
 * Candidate diseases as indices: the given ones, else the smallest top set holding
 * `mass` of the posterior (at most `max`), so questions aim at the live differential.
 */
export function candidateIndices(ctx: RankContext, opts: { mass: number; max: number }): number[] {
  if (ctx.candidateDiseases) return ctx.candidateDiseases.flatMap((id) => ctx.model.diseaseIndex(id) ?? []);
  const order = [...ctx.posterior.keys()].sort((a, b) => ctx.posterior[b]! - ctx.posterior[a]!);
  const out: number[] = [];
  let acc = 0;
  for (const i of order) {
    if (acc >= opts.mass || out.length >= opts.max) break;
    out.push(i);
    acc += ctx.posterior[i]!;
  }
  return out;
}

export function createRanker(name: RankerName, opts: { seed?: number } = {}): FollowupRanker {
  switch (name) {
    case 'sigma':
      return sigmaRanker();
    case 'information-gain':
      return informationGainRanker();
    case 'random':
      return randomRanker(opts.seed ?? 1);
  }
}
