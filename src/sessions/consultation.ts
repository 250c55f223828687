/**
 * Consultation use cases: start a session from a first description, answer follow-up
 * questions (by question id), read the whole history.
 *
 * One starting point (issue 19): the first turn IS the query service's `diagnose` on the
 * body, the call `/v1/diagnose` makes, so a new session shows exactly the differential
 * `/v1/diagnose` gives for the same body. Answers then update that differential by Bayes'
 * rule with the KG's likelihoods (the follow-up engine's naive Bayes over answers, with
 * the first differential, blended with the KG's own reading of the description, as the
 * prior: starting-prior.ts); the next questions are planned over the KG's reading. So two
 * scorers remain, on purpose: re-running `diagnose`
 * with the answers as coded findings was measured on the interactive protocol and that
 * scorer, tuned for whole records, reads a handful of answers poorly (200 held-out DDXPlus
 * patients: @5 79.5% instead of 95.5%); docs/followups.md has the figures.
 *
 * Each turn recomputes from everything known, so a repeated identical answer changes
 * nothing and a changed answer replaces the earlier one. Limits (issue 18): sessions
 * belong to their creator (`owner`), and answer turns per session are capped, which also
 * bounds the history an answer flipping back and forth can grow.
 *
 * Replicas (issue 28): state is never changed in place; each answer turn builds the next
 * state and saves it against the version it read (repository.ts), so two replicas answering
 * the same turn at once give one answer and one SessionConflictError. A session keeps the KG
 * build it started on and takes answers only on a server serving that build (SessionBuildError).
 */
import { normalizeAnswer, sameAnswer, type AnswerValue } from '../followups/answers.js';
import type { FollowupEngine, PatientState } from '../followups/engine.js';
import { rankDifferential, type FeatureEvidence } from '../followups/posterior.js';
import type { RankerName } from '../followups/ranker.js';
import { InputError, NotFoundError } from '../errors.js';
import { DEFAULT_OPTIONS, type DiagnoseInput, type DiagnoseResult, type InputFinding } from '../query/contracts.js';
import { SessionBuildError, SessionConflictError, SessionLimitError } from './errors.js';
import type { AnswersRequest, SessionHistory, SessionView, StartSessionRequest, Turn } from './schemas.js';
import type { SessionRecord, SessionRepository } from './repository.js';
import { blendPriors, startingPrior } from './starting-prior.js';
import { toInputFinding } from '../http/finding-input.js';
import { historyView, recordedAnswers, sessionView, turnOf, type TurnResult } from './views.js';
import { calibrateSessionPosterior, type SessionCalibration } from './calibrated-differential.js';

export interface ConsultationOptions {
  /** The top disease's probability at which the response signals "stop asking". */
  confidence: number;
  questions: number;
  differential: number;
  ranker: RankerName;
  /** Answers recorded per session: each changed answer counts one, identical repeats none. */
  maxTurns: number;
  /** Mass of the diseases the first differential leaves out, relative to its lowest entry (starting-prior.ts). */
  unlistedMass: number;
  /** Weight w of diagnose's first differential in the prior the answers update, p_diagnose^w · p_kg^(1−w) (starting-prior.ts). */
  diagnoseWeight: number;
}

export const DEFAULT_CONSULTATION_OPTIONS: ConsultationOptions = { confidence: 0.9, questions: 5, differential: 10, ranker: 'information-gain', maxTurns: 200, unlistedMass: 1, diagnoseWeight: 0.25 };

/** The query service's use case (a fake implements it in unit tests). */
export interface DiagnosePort {
  diagnose(input: DiagnoseInput): Promise<DiagnoseResult>;
}

export interface FirstDescription {
  text: string | null;
  findings: InputFinding[];
  age: number | null;
  sex: 'M' | 'F' | null;
}

export interface SessionState {
  description: FirstDescription;
  ranker: RankerName;
  questions: number;
  /** The prior the answers update: the first turn's `diagnose` differential blended with the KG's reading (starting-prior.ts). */
  prior: ReadonlyMap<string, number>;
  /** question id → canonical answer, in answering order. */
  answers: Map<string, AnswerValue>;
  /** Features the first description was matched to (its best match per finding): not asked again. */
  evidence: FeatureEvidence[];
  turns: Turn[];
  last: TurnResult;
  /** `diagnose`'s verdict that the first description matched too little of the KG to rank, else null. */
  insufficient: DiagnoseResult['insufficient'];
}

/** What the router and the evaluation harness need (a fake implements it in the router's tests). */
export interface ConsultationPort {
  start(owner: string, req: StartSessionRequest): Promise<SessionView>;
  answer(owner: string, id: string, req: AnswersRequest): Promise<SessionView>;
  get(owner: string, id: string): Promise<SessionHistory>;
  /** Ends a session (frees the owner's quota); NotFoundError like `get`. */
  end(owner: string, id: string): Promise<void>;
}

export class Consultation implements ConsultationPort {
  private readonly opts: ConsultationOptions;
  private readonly now: () => number;

  constructor(
    private readonly deps: {
      engine: FollowupEngine;
      store: SessionRepository<SessionState>;
      query: DiagnosePort;
      /** The KG build this server serves (the snapshot's); recorded on new sessions, required of answered ones. */
      buildId?: string | null;
      /** The newest complete build in the KG (Neo4j), asked only when a session's build differs from the served one; absent = never newer. */
      newestBuild?: () => Promise<string | null>;
      /** The build's posterior calibration, applied to the differential shown after answers (calibrated-differential.ts); absent: shown raw. */
      calibration?: SessionCalibration | null;
      now?: () => number;
    },
    opts: Partial<ConsultationOptions> = {},
  ) {
    this.opts = { ...DEFAULT_CONSULTATION_OPTIONS, ...opts };
    this.now = deps.now ?? Date.now;
  }

  async start(owner: string, req: StartSessionRequest): Promise<SessionView> {
    const description: FirstDescription = {
      text: req.text ?? null,
      findings: (req.findings ?? []).map((f, i) => toInputFinding(f, `findings.${i}`)),
      age: req.age ?? null,
      sex: req.sex ?? null,
    };
    // Refuse before the pipeline's work when the owner is at its quota (create checks again).
    await this.deps.store.assertRoom(owner);
    // Exactly what /v1/diagnose runs for a body without options; its own questions are not needed.
    // Nothing described (only age/sex: the masking protocol at 100%; HTTP requires a description)
    // is a body diagnose refuses: the session then starts from the KG prior alone.
    const empty = description.text === null && description.findings.length === 0;
    const out = empty ? null : await this.deps.query.diagnose({ ...description, options: { ...DEFAULT_OPTIONS, followUps: 0 } });
    const listed = (out?.differential ?? []).map((r) => ({ diseaseId: r.diseaseId, disease: r.disease, probability: r.score }));
    // The answers update diagnose's uncalibrated reading (as measured, docs/followups.md): the
    // build's calibration changes the numbers shown, not the questions asked or the ranking.
    const raw = out?.probability?.uncalibrated ?? listed.map((d) => d.probability);
    const parts = {
      description,
      ranker: req.ranker ?? this.opts.ranker,
      questions: req.followUps ?? this.opts.questions,
      prior: new Map<string, number>(),
      answers: new Map<string, AnswerValue>(),
      evidence: out ? bestMatches(out) : [],
      insufficient: out?.insufficient ?? null,
    };
    const { engine } = this.deps;
    const kg = engine.posteriorOf({ evidence: parts.evidence, answers: [], demographics: null, prior: null, candidateDiseases: null });
    const fromDiagnose = startingPrior(engine.model, new Map(listed.map((d, i) => [d.diseaseId, raw[i]!])), this.opts.unlistedMass);
    parts.prior = blendPriors(engine.model, fromDiagnose, kg, this.opts.diagnoseWeight);
    // The first turn shows diagnose's differential itself; the engine only picks the questions,
    // planned over the KG's reading just computed (no answers yet).
    const result = this.assess(parts, out ? listed.slice(0, this.opts.differential) : null, kg);
    const state: SessionState = { ...parts, turns: [turnOf({ at: this.now(), kind: 'start', answers: [], result, engine: this.deps.engine })], last: result };
    return this.view(await this.deps.store.create(owner, this.deps.buildId ?? null, state));
  }

  async answer(owner: string, id: string, req: AnswersRequest): Promise<SessionView> {
    const s = await this.deps.store.peek(id, owner); // the save below refreshes the expiry
    const served = this.deps.buildId ?? null;
    // Before the answers are checked: an old build's question ids may be unknown to this one, and the client should learn the session ended, not that its answer is bad.
    if (s.buildId !== served) throw new SessionBuildError(s.buildId, served, s.buildId !== null && s.buildId === (await this.deps.newestBuild?.()));
    const accepted = this.validate(req);
    const state = s.value;
    const changed = [...accepted].filter(([qid, a]) => !(state.answers.has(qid) && sameAnswer(state.answers.get(qid)!, a)));
    if (changed.length === 0) return this.view(s); // idempotent repeat (a retry after a lost response), whatever version it names
    // The client's view of the session (optional): answers chosen on an older turn are refused, not merged.
    if (req.version !== undefined && req.version !== s.version) {
      throw new SessionConflictError(`the session is at version ${s.version}, not ${req.version}: another answer was recorded first; reload it and answer again`, s.version);
    }
    // Each changed answer is one turn of the cap, so the history (which records every change) is bounded by it.
    if (recordedAnswers(state) + changed.length > this.opts.maxTurns) {
      throw new SessionLimitError('session-turns', `this session reached its limit of ${this.opts.maxTurns} recorded answers; start a new session`);
    }
    const answers = new Map(state.answers);
    for (const [qid, a] of changed) {
      answers.delete(qid); // a changed answer moves to the end of the answering order
      answers.set(qid, a);
    }
    const last = this.assess({ ...state, answers }, null);
    const turn = turnOf({ at: this.now(), kind: 'answers', answers: changed, result: last, engine: this.deps.engine });
    return this.view(await this.deps.store.save(s, { ...state, answers, last, turns: [...state.turns, turn] }));
  }

  async get(owner: string, id: string): Promise<SessionHistory> {
    const s = await this.deps.store.get(id, owner);
    return historyView(s, this.deps.store.expiresAt(s), this.opts.maxTurns, this.deps.engine);
  }

  async end(owner: string, id: string): Promise<void> {
    // 404 for a missing, expired or foreign id
    if (!(await this.deps.store.delete(id, owner))) throw new NotFoundError('session not found or expired');
  }

  /** The whole batch is checked before anything changes (a bad answer changes nothing). */
  private validate(req: AnswersRequest): Map<string, AnswerValue> {
    const accepted = new Map<string, AnswerValue>();
    req.answers.forEach((a, i) => {
      const q = this.deps.engine.catalogue.byId.get(a.questionId);
      // The id is not echoed: error messages never repeat client input (issue 18).
      if (!q) throw new InputError('unknown question id', { field: `answers.${i}.questionId` });
      const norm = normalizeAnswer(q, a.answer);
      if (!norm.ok) throw new InputError(norm.error, { field: `answers.${i}.answer` });
      const dup = accepted.get(q.id);
      if (dup && !sameAnswer(dup, norm.value)) throw new InputError(`question ${q.id} answered twice differently`, { field: `answers.${i}` });
      accepted.set(q.id, norm.value);
    });
    return accepted;
  }

  private view(s: SessionRecord<SessionState>): SessionView {
    return sessionView(s, this.deps.store.expiresAt(s), this.opts.maxTurns);
  }

  /** The prior updated by the answers, calibrated as diagnose's differential is (the stop signal reads it too). */
  private shownPosterior(state: Pick<SessionState, 'description' | 'prior' | 'evidence'>, answers: PatientState['answers']): Float64Array {
    const posterior = this.deps.engine.posteriorOf({ evidence: [], answers, demographics: null, prior: state.prior, candidateDiseases: null });
    return calibrateSessionPosterior(posterior, this.deps.calibration ?? null, { description: state.description, findingsKnown: state.evidence.length + answers.length });
  }

  /**
   * The prior updated by the answers, the next questions over it and the stop signal;
   * `shown` replaces the differential displayed (the first turn shows diagnose's own), and
   * `planning` is the KG's reading when the caller already has it (the first turn).
   */
  private assess(
    state: Pick<SessionState, 'description' | 'prior' | 'answers' | 'evidence' | 'ranker' | 'questions'>,
    shown: TurnResult['differential'] | null,
    planning: Float64Array | null = null,
  ): TurnResult {
    const { engine } = this.deps;
    const answers = [...state.answers].map(([qid, answer]) => ({ question: engine.catalogue.byId.get(qid)!, answer }));
    // The description's evidence is already in the prior (diagnose read it): only the answers are added.
    const differential = shown ?? rankDifferential(engine.model, this.shownPosterior(state, answers), this.opts.differential);
    // Questions are planned over the KG's own reading of the description and the answers (the
    // model whose information gain they maximise); measured, that asks better questions than
    // planning over the blend (docs/followups.md#sessions).
    planning ??= engine.posteriorOf({ evidence: state.evidence, answers, demographics: null, prior: null, candidateDiseases: null });
    const { questions } = engine.next(planning, { asked: new Set(state.answers.keys()), knownFeatures: new Set(state.evidence.map((e) => e.featureId)), candidateDiseases: null }, {
      ranker: state.ranker, questions: state.questions, differential: this.opts.differential, confidence: this.opts.confidence,
    });
    // The stop signal reads the differential as shown.
    const top = differential[0]?.probability ?? 0;
    const reason = top >= this.opts.confidence ? 'confident' : questions.length === 0 ? 'no-questions' : null;
    return { differential, questions, stop: { stop: reason !== null, reason, topProbability: top, confidence: this.opts.confidence } };
  }
}

/** The pipeline's best feature match per finding: what the description is known to say. */
function bestMatches(out: DiagnoseResult): FeatureEvidence[] {
  const best = new Map<number, DiagnoseResult['trace']['matches'][number]>();
  for (const m of out.trace.matches) if ((best.get(m.findingIndex)?.similarity ?? -Infinity) < m.similarity) best.set(m.findingIndex, m);
  const seen = new Set<string>();
  const evidence: FeatureEvidence[] = [];
  for (const m of best.values()) {
    if (seen.has(m.featureId)) continue;
    seen.add(m.featureId);
    evidence.push({ featureId: m.featureId, present: m.polarity === 'present' });
  }
  return evidence;
}
