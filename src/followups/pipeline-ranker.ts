/**
 * The follow-up engine behind the query pipeline's `FollowUpRanker` port, so
 * `/v1/diagnose` can return grouped, information-gain-ranked questions. The engine is
 * built once per snapshot. The port carries no polarity, so reported features count
 * as present.
 */
import type { FollowUpQuestion } from '../query/contracts.js';
import type { FollowUpInput, FollowUpRanker } from '../query/followups-sigma.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import { FollowupEngine } from './engine.js';
import { FollowupModel, type ModelOptions } from './model.js';
import { buildQuestionCatalogue, type AnswerTypeHints } from './question-model.js';
import type { RankerName } from './ranker.js';
import { followupKgFromSnapshot } from './snapshot-kg.js';

export class EngineFollowUpRanker implements FollowUpRanker {
  private readonly engines = new WeakMap<KgSnapshot, FollowupEngine>();

  constructor(
    readonly name: RankerName = 'information-gain',
    private readonly opts: { hints?: AnswerTypeHints; model?: Partial<ModelOptions> } = {},
  ) {}

  engineFor(s: KgSnapshot): FollowupEngine {
    let e = this.engines.get(s);
    if (!e) {
      const model = new FollowupModel(followupKgFromSnapshot(s), this.opts.model ?? {});
      e = new FollowupEngine(model, buildQuestionCatalogue(model.features, this.opts.hints ? { hints: this.opts.hints } : {}));
      this.engines.set(s, e);
    }
    return e;
  }

  rank(input: FollowUpInput): FollowUpQuestion[] {
    const engine = this.engineFor(input.snapshot);
    const a = engine.assess(
      {
        evidence: [...input.reportedFeatureIds].map((featureId) => ({ featureId, present: true })),
        answers: [],
        demographics: null,
        prior: null,
        candidateDiseases: input.candidateDiseases.length > 0 ? input.candidateDiseases.map((d) => input.snapshot.diseases[d]!.id) : null,
      },
      { ranker: this.name, questions: input.limit, differential: 1, confidence: 1.1 },
    );
    return a.questions.map((q) => ({ id: q.question.id, featureId: q.featureId, text: q.question.text, score: q.score, ranker: q.ranker }));
  }
}
