/** Session state → response bodies (no patient text beyond what the client sent). */
import type { AnswerValue } from '../followups/answers.js';
import type { FollowupEngine, StopSignal } from '../followups/engine.js';
import { shippedVoice } from '../presentation/shipped-voice.js';
import type { ScoredQuestion } from '../followups/ranker.js';
import type { SessionState } from './consultation.js';
import type { SessionHistory, SessionView, Turn } from './schemas.js';
import type { SessionRecord } from './repository.js';

const iso = (t: number): string => new Date(t).toISOString();

/** A feature as the clinician reads it: its clinical label (src/presentation/), never the source's patient-facing question. */
function labelOf(engine: FollowupEngine, featureId: string): string {
  const f = engine.model.feature(featureId);
  return f ? shippedVoice().label(f) : featureId;
}

/** One turn's outcome: the pipeline's differential, the next questions, the stop signal. */
export interface TurnResult {
  differential: SessionView['differential'];
  questions: ScoredQuestion[];
  stop: StopSignal;
}

export function questionView(s: ScoredQuestion): SessionView['questions'][number] {
  const q = s.question;
  return {
    id: q.id,
    text: q.text,
    answerType: q.answerType,
    options: q.answerType === 'yes-no' ? [] : q.options.map((o) => ({ id: o.featureId, valueCode: o.valueCode, label: o.label })),
    score: s.score,
    ranker: s.ranker,
    featureId: s.featureId,
  };
}

/** Answers recorded in the history so far (each changed answer counts once). */
export function recordedAnswers(state: Pick<SessionState, 'turns'>): number {
  return state.turns.reduce((n, t) => n + t.answers.length, 0);
}

export function sessionView(s: SessionRecord<SessionState>, expiresAt: number, maxTurns: number): SessionView {
  const st = s.value;
  return {
    sessionId: s.id,
    createdAt: iso(s.createdAt),
    expiresAt: iso(expiresAt),
    ranker: st.ranker,
    differential: st.last.differential,
    questions: st.last.questions.map(questionView),
    stop: st.last.stop,
    answered: st.answers.size,
    turnsLeft: Math.max(0, maxTurns - recordedAnswers(st)),
    insufficient: st.answers.size === 0 ? st.insufficient : null,
    version: s.version,
    buildId: s.buildId,
  };
}

export function turnOf(t: { at: number; kind: Turn['kind']; answers: [string, AnswerValue][]; result: TurnResult; engine: FollowupEngine }): Turn {
  return {
    at: iso(t.at),
    kind: t.kind,
    answers: t.answers.map(([qid, answer]) => ({ questionId: qid, question: t.engine.catalogue.byId.get(qid)?.text ?? qid, answer })),
    differential: t.result.differential.slice(0, 5),
    questions: t.result.questions.map((q) => q.question.id),
    stop: t.result.stop,
  };
}

export function historyView(s: SessionRecord<SessionState>, expiresAt: number, maxTurns: number, engine: FollowupEngine): SessionHistory {
  const st = s.value;
  return {
    ...sessionView(s, expiresAt, maxTurns),
    description: st.description,
    evidence: st.evidence.map((e) => ({ featureId: e.featureId, feature: labelOf(engine, e.featureId), present: e.present })),
    turns: st.turns,
  };
}
