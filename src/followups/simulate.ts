/**
 * DDXPlus's interactive protocol: start from age, sex and the initial evidence only,
 * ask the top-ranked question, let a simulated patient answer from the held-out
 * record, repeat; record the top-1 disease after each checkpoint.
 */
import type { NormalizedRecord } from '../domain/record.js';
import { normalizeAnswer, type AnswerValue, type QuestionAnswer } from './answers.js';
import type { FollowupEngine, PatientState } from './engine.js';
import type { FeatureEvidence } from './posterior.js';
import type { Question } from './question-model.js';
import type { RankerName } from './ranker.js';
import type { FeatureIdScheme } from './record-kg.js';
import { isDdxplusEvidenceCode } from '../sources/ddxplus/evidence-token.js';

/**
 * How a simulated patient treats what its record does not list. `closed`: the record answers every
 * question of its questionnaire (DDXPlus), so an unlisted answer to one of them is a "no"; a
 * question DDXPlus never asked (an HPO or emergent concept a notes source added to the KG) is one
 * the record cannot answer: "don't know". `open`: the record lists what
 * was recorded (OMOP, FHIR, tabular, notes), so an unlisted one is "don't know"; "no" only when
 * the record denies it or holds another value of the same question.
 */
export type RecordWorld = 'closed' | 'open';

/** What the simulated patient says: yes if the record has the feature/any option present; else no or don't know (`world`). */
export function recordAnswer(q: Question, rec: NormalizedRecord, scheme: FeatureIdScheme, world: RecordWorld = 'closed'): AnswerValue {
  // A denied finding ("Fever: absent") shares its feature id with the present one: only present ones are a yes.
  const has = new Set(rec.findings.filter((f) => f.polarity === 'present').map((f) => scheme.featureId(f)));
  const chosen = q.options.filter((o) => has.has(o.featureId)).map((o) => o.featureId);
  const closed = world === 'closed' && q.code !== null && isDdxplusEvidenceCode(q.code);
  if (q.answerType === 'yes-no') return chosen.length > 0 ? { type: 'yes' } : closed || says(q, rec, scheme) ? { type: 'no' } : { type: 'unknown' };
  if (chosen.length > 0) return { type: 'options', optionIds: q.answerType === 'several-of' ? chosen : chosen.slice(0, 1) };
  if (q.answerType === 'number') {
    // A value never seen in training: answer the number, mapped to the nearest option.
    const f = rec.findings.find((x) => x.code === q.code && x.valueCode !== null && Number.isFinite(Number(x.valueCode)));
    if (f) return { type: 'number', value: Number(f.valueCode) };
  }
  return closed || says(q, rec, scheme) ? { type: 'no' } : { type: 'unknown' };
}

/** The record speaks to the question: it denies one of its options, or holds a value of its code (a lab in another bin). */
function says(q: Question, rec: NormalizedRecord, scheme: FeatureIdScheme): boolean {
  const options = new Set(q.options.map((o) => o.featureId));
  return rec.findings.some((f) => options.has(scheme.featureId(f)) || (q.code !== null && f.code === q.code));
}

export function answerFromRecord(q: Question, rec: NormalizedRecord, scheme: FeatureIdScheme): QuestionAnswer {
  const a = normalizeAnswer(q, recordAnswer(q, rec, scheme));
  return { question: q, answer: a.ok ? a.value : { type: 'unknown' } };
}

export interface DialogueOptions {
  ranker: RankerName;
  /** Record the top-1 disease after this many questions. */
  checkpoints: readonly number[];
  confidence: number;
}

export interface DialogueRun {
  recordId: string;
  /** checkpoint → top-1 disease id */
  topAt: Map<number, string>;
  /** Questions asked when the top probability first reached `confidence` (null: never). */
  questionsToConfidence: number | null;
  topAtConfidence: string | null;
}

/** Runs one dialogue from a starting state; the patient answers from `rec`. */
export function runDialogue(engine: FollowupEngine, rec: NormalizedRecord, start: PatientState, opts: DialogueOptions & { scheme: FeatureIdScheme }): DialogueRun {
  const max = Math.max(0, ...opts.checkpoints);
  const answers: QuestionAnswer[] = [...start.answers];
  const run: DialogueRun = { recordId: rec.id, topAt: new Map(), questionsToConfidence: null, topAtConfidence: null };
  for (let asked = 0; ; asked++) {
    const a = engine.assess({ ...start, answers }, { ranker: opts.ranker, questions: 1, differential: 1, confidence: opts.confidence });
    const top = a.differential[0]?.diseaseId ?? '';
    if (opts.checkpoints.includes(asked)) run.topAt.set(asked, top);
    if (a.stop.reason === 'confident' && run.questionsToConfidence === null) {
      run.questionsToConfidence = asked;
      run.topAtConfidence = top;
    }
    const next = a.questions[0];
    if (asked >= max || !next) {
      for (const k of opts.checkpoints) if (k > asked) run.topAt.set(k, top); // nothing left to ask
      return run;
    }
    answers.push(answerFromRecord(next.question, rec, opts.scheme));
  }
}

/** The protocol's starting state: demographics and the answer to the initial evidence's question. */
export function initialState(engine: FollowupEngine, rec: NormalizedRecord, scheme: FeatureIdScheme, opts: { demographics: boolean }): PatientState {
  const q = rec.initialFindingCode !== null ? engine.catalogue.byId.get(`q:${rec.initialFindingCode}`) : undefined;
  const evidence: FeatureEvidence[] = [];
  return {
    evidence,
    answers: q ? [answerFromRecord(q, rec, scheme)] : [],
    demographics: opts.demographics ? { age: rec.age, sex: rec.sex } : null,
    prior: null,
    candidateDiseases: null,
  };
}

export interface AccuracyRow {
  ranker: RankerName;
  patients: number;
  /** checkpoint → top-1 accuracy */
  accuracy: Record<number, number>;
  meanQuestionsToConfidence: number;
  accuracyAtConfidence: number;
}

export function summarize(ranker: RankerName, runs: readonly DialogueRun[], truth: (recordId: string) => string, checkpoints: readonly number[], maxQuestions: number): AccuracyRow {
  const accuracy: Record<number, number> = {};
  for (const k of checkpoints) accuracy[k] = runs.filter((r) => r.topAt.get(k) === truth(r.recordId)).length / Math.max(1, runs.length);
  // Dialogues that never reached the confidence count as using every question allowed.
  const q = runs.map((r) => r.questionsToConfidence ?? maxQuestions);
  const atConf = runs.filter((r) => (r.topAtConfidence ?? r.topAt.get(maxQuestions)) === truth(r.recordId)).length;
  return {
    ranker,
    patients: runs.length,
    accuracy,
    meanQuestionsToConfidence: q.reduce((s, v) => s + v, 0) / Math.max(1, q.length),
    accuracyAtConfidence: atConf / Math.max(1, runs.length),
  };
}
