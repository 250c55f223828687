/**
 * SessionState ↔ JSON text, for stores outside this process (neo4j-repository.ts). Maps become
 * entry lists; the offered questions are kept by id with their scores and re-attached to the
 * catalogue's Question objects on reading. A question the catalogue no longer has (a session of
 * another KG build, which can only be read, not answered: SessionBuildError) is left out.
 * No schema check on reading: the text is AES-GCM authenticated (sealed-content.ts), so it is
 * exactly what `encodeState` wrote; only the format number is checked, for later changes.
 */
import type { AnswerValue } from '../followups/answers.js';
import type { QuestionCatalogue } from '../followups/question-model.js';
import type { RankerName } from '../followups/ranker.js';
import { DxError } from '../errors.js';
import type { SessionState } from './consultation.js';
import type { TurnResult } from './views.js';

const FORMAT = 1;

interface StoredQuestion {
  questionId: string;
  score: number;
  ranker: RankerName;
  featureId: string;
}

interface EncodedState extends Omit<SessionState, 'prior' | 'answers' | 'last'> {
  format: number;
  prior: [string, number][];
  answers: [string, AnswerValue][];
  last: Omit<TurnResult, 'questions'> & { questions: StoredQuestion[] };
}

export function encodeState(s: SessionState): string {
  const e: EncodedState = {
    ...s,
    format: FORMAT,
    prior: [...s.prior],
    answers: [...s.answers],
    last: { ...s.last, questions: s.last.questions.map((q) => ({ questionId: q.question.id, score: q.score, ranker: q.ranker, featureId: q.featureId })) },
  };
  return JSON.stringify(e);
}

export function decodeState(text: string, catalogue: Pick<QuestionCatalogue, 'byId'>): SessionState {
  const e = JSON.parse(text) as EncodedState;
  if (e.format !== FORMAT) throw new DxError('SESSION_FORMAT', `stored session format ${String(e.format)} is not ${FORMAT}: written by another dxgraph version`);
  const { format: _format, ...rest } = e;
  return {
    ...rest,
    prior: new Map(e.prior),
    answers: new Map(e.answers),
    last: {
      ...e.last,
      questions: e.last.questions.flatMap((q) => {
        const question = catalogue.byId.get(q.questionId);
        return question ? [{ question, score: q.score, ranker: q.ranker, featureId: q.featureId }] : [];
      }),
    },
  };
}
