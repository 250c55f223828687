/**
 * The follow-up engine: given what is known about a patient (first-description
 * evidence, answers, demographics), the differential, the next questions and whether
 * to stop. Sessions and the simulation both go through `assess`.
 */
import type { QuestionAnswer } from './answers.js';
import type { Demographics } from './demographics.js';
import type { FollowupModel } from './model.js';
import { posterior, rankDifferential, type DifferentialEntry, type FeatureEvidence } from './posterior.js';
import type { QuestionCatalogue } from './question-model.js';
import { createRanker, type FollowupRanker, type RankerName, type ScoredQuestion } from './ranker.js';

export interface PatientState {
  evidence: readonly FeatureEvidence[];
  answers: readonly QuestionAnswer[];
  demographics: Demographics | null;
  /** Upstream differential to start from (disease id → probability), or null for the KG prior. */
  prior: ReadonlyMap<string, number> | null;
  candidateDiseases: readonly string[] | null;
}

export interface AssessOptions {
  ranker: RankerName;
  questions: number;
  differential: number;
  /** Stop asking once the top disease's probability reaches this. */
  confidence: number;
}

export interface StopSignal {
  stop: boolean;
  reason: 'confident' | 'no-questions' | null;
  topProbability: number;
  confidence: number;
}

export interface Assessment {
  posterior: Float64Array;
  differential: DifferentialEntry[];
  questions: ScoredQuestion[];
  stop: StopSignal;
}

export class FollowupEngine {
  private readonly rankers = new Map<RankerName, FollowupRanker>();

  constructor(
    readonly model: FollowupModel,
    readonly catalogue: QuestionCatalogue,
    opts: { rankers?: FollowupRanker[] } = {},
  ) {
    for (const r of opts.rankers ?? []) this.rankers.set(r.name, r);
  }

  ranker(name: RankerName): FollowupRanker {
    let r = this.rankers.get(name);
    if (!r) this.rankers.set(name, (r = createRanker(name)));
    return r;
  }

  posteriorOf(state: PatientState): Float64Array {
    const prior = state.prior ? Float64Array.from(this.model.diseases, (d) => state.prior!.get(d.id) ?? 0) : null;
    return posterior(this.model, { answers: state.answers, evidence: state.evidence, demographics: state.demographics, prior });
  }

  assess(state: PatientState, opts: AssessOptions): Assessment {
    const post = this.posteriorOf(state);
    const differential = rankDifferential(this.model, post, opts.differential);
    const asked = new Set(state.answers.map((a) => a.question.id));
    const { questions, stop } = this.next(post, { asked, knownFeatures: new Set(state.evidence.map((e) => e.featureId)), candidateDiseases: state.candidateDiseases }, opts);
    return { posterior: post, differential, questions, stop };
  }

  /** The next questions over a posterior (index-aligned with the model's diseases) and the stop signal. */
  next(post: Float64Array, known: QuestionContext, opts: AssessOptions): Pick<Assessment, 'questions' | 'stop'> {
    let top = 0;
    for (const p of post) if (p > top) top = p;
    const confident = top >= opts.confidence;
    // Questions are still offered when confident: the clinician may want to confirm.
    const questions = this.ranker(opts.ranker).rank(
      { model: this.model, catalogue: this.catalogue, posterior: post, asked: known.asked, knownFeatures: known.knownFeatures, candidateDiseases: known.candidateDiseases },
      opts.questions,
    );
    const reason = confident ? 'confident' : questions.length === 0 ? 'no-questions' : null;
    return { questions, stop: { stop: reason !== null, reason, topProbability: top, confidence: opts.confidence } };
  }
}

/** What the question ranking must skip or aim at. */
export interface QuestionContext {
  /** Question ids already answered (even "unknown"). */
  asked: ReadonlySet<string>;
  /** Features known from the first description. */
  knownFeatures: ReadonlySet<string>;
  candidateDiseases: readonly string[] | null;
}
