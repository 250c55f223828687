/**
 * Consultation use cases: start a session from a first description, answer follow-up
 * questions (by question id), read the whole history. Each turn recomputes the
 * differential from everything known, so a repeated identical answer changes nothing
 * and a changed answer simply replaces the earlier one.
 */
import { normalizeAnswer, sameAnswer, type AnswerValue } from '../followups/answers.js';
import type { Assessment, FollowupEngine, PatientState } from '../followups/engine.js';
import type { FeatureEvidence } from '../followups/posterior.js';
import type { RankerName } from '../followups/ranker.js';
import { InputError } from '../errors.js';
import type { DescriptionInterpreter, FirstDescription } from './interpreter.js';
import type { AnswersRequest, SessionHistory, SessionView, StartSessionRequest, Turn } from './schemas.js';
import type { SessionStore, StoredSession } from './session-store.js';
import { historyView, sessionView, turnOf } from './views.js';

export interface ConsultationOptions {
  /** The top disease's probability at which the response signals "stop asking". */
  confidence: number;
  questions: number;
  differential: number;
  ranker: RankerName;
}

export const DEFAULT_CONSULTATION_OPTIONS: ConsultationOptions = { confidence: 0.9, questions: 5, differential: 10, ranker: 'information-gain' };

export interface SessionState {
  description: FirstDescription;
  evidence: FeatureEvidence[];
  candidateDiseases: string[] | null;
  ranker: RankerName;
  questions: number;
  /** question id → canonical answer, in answering order. */
  answers: Map<string, AnswerValue>;
  turns: Turn[];
  last: Assessment;
}

type AssessedParts = Omit<SessionState, 'turns' | 'last'>;

/** What the router needs (a fake implements it in the router's tests). */
export interface ConsultationPort {
  start(req: StartSessionRequest): Promise<SessionView>;
  answer(id: string, req: AnswersRequest): SessionView;
  get(id: string): SessionHistory;
}

export class Consultation implements ConsultationPort {
  private readonly opts: ConsultationOptions;
  private readonly now: () => number;

  constructor(
    private readonly deps: { engine: FollowupEngine; store: SessionStore<SessionState>; interpreter: DescriptionInterpreter; now?: () => number },
    opts: Partial<ConsultationOptions> = {},
  ) {
    this.opts = { ...DEFAULT_CONSULTATION_OPTIONS, ...opts };
    this.now = deps.now ?? Date.now;
  }

  async start(req: StartSessionRequest): Promise<SessionView> {
    const description: FirstDescription = {
      text: req.text ?? null,
      findings: (req.findings ?? []).map((f) => ({ text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode })),
      age: req.age ?? null,
      sex: req.sex ?? null,
    };
    const { evidence, candidateDiseases } = await this.deps.interpreter.interpret(description);
    const parts: AssessedParts = { description, evidence, candidateDiseases, ranker: req.ranker ?? this.opts.ranker, questions: req.followUps ?? this.opts.questions, answers: new Map() };
    const state: SessionState = { ...parts, turns: [], last: this.assess(parts) };
    state.turns.push(turnOf({ at: this.now(), kind: 'start', answers: [], assessment: state.last, engine: this.deps.engine }));
    const s = this.deps.store.create(state);
    return sessionView(s, this.deps.store.expiresAt(s));
  }

  answer(id: string, req: AnswersRequest): SessionView {
    const s = this.deps.store.get(id);
    const state = s.value;
    // Validate the whole batch before changing anything (a bad answer changes nothing).
    const accepted = new Map<string, AnswerValue>();
    req.answers.forEach((a, i) => {
      const q = this.deps.engine.catalogue.byId.get(a.questionId);
      if (!q) throw new InputError(`unknown question id '${a.questionId.slice(0, 200)}'`, { field: `answers.${i}.questionId` });
      const norm = normalizeAnswer(q, a.answer);
      if (!norm.ok) throw new InputError(norm.error, { field: `answers.${i}.answer` });
      const dup = accepted.get(q.id);
      if (dup && !sameAnswer(dup, norm.value)) throw new InputError(`question ${q.id} answered twice differently`, { field: `answers.${i}` });
      accepted.set(q.id, norm.value);
    });
    const changed = [...accepted].filter(([qid, a]) => !(state.answers.has(qid) && sameAnswer(state.answers.get(qid)!, a)));
    if (changed.length === 0) return this.view(s); // idempotent repeat
    for (const [qid, a] of changed) {
      state.answers.delete(qid); // a changed answer moves to the end of the answering order
      state.answers.set(qid, a);
    }
    state.last = this.assess(state);
    state.turns.push(turnOf({ at: this.now(), kind: 'answers', answers: changed, assessment: state.last, engine: this.deps.engine }));
    return this.view(s);
  }

  get(id: string): SessionHistory {
    const s = this.deps.store.get(id);
    return historyView(s, this.deps.store.expiresAt(s), this.deps.engine);
  }

  private view(s: StoredSession<SessionState>): SessionView {
    return sessionView(s, this.deps.store.expiresAt(s));
  }

  private assess(state: AssessedParts): Assessment {
    const { catalogue } = this.deps.engine;
    const patient: PatientState = {
      evidence: state.evidence,
      answers: [...state.answers].map(([qid, answer]) => ({ question: catalogue.byId.get(qid)!, answer })),
      demographics: { age: state.description.age, sex: state.description.sex },
      prior: null,
      candidateDiseases: state.candidateDiseases,
    };
    return this.deps.engine.assess(patient, { ranker: state.ranker, questions: state.questions, differential: this.opts.differential, confidence: this.opts.confidence });
  }
}
