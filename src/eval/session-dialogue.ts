/**
 * One simulated consultation through the session use case the server exposes
 * (`Consultation.start` / `answer`, src/sessions): start from a first description, take
 * the top question, let the simulated patient answer, repeat; note the top-1 disease
 * after each checkpoint and when the top probability first reached the confidence.
 */
import { performance } from 'node:perf_hooks';
import type { NormalizedRecord } from '../domain/record.js';
import type { RankerName } from '../followups/ranker.js';
import type { FeatureIdScheme } from '../followups/record-kg.js';
import type { DialogueRun, RecordWorld } from '../followups/simulate.js';
import type { InputFinding } from '../query/contracts.js';
import type { ConsultationPort } from '../sessions/consultation.js';
import { patientAnswer } from './simulated-patient.js';

export type SessionPort = Pick<ConsultationPort, 'start' | 'answer' | 'end'>;

/** The harness is one client: all its sessions have one owner. */
const EVAL_OWNER = 'eval';

export interface DialogueStart {
  findings: InputFinding[];
  age: number | null;
  sex: 'M' | 'F' | null;
}

export interface SessionDialogueOptions {
  ranker: RankerName;
  checkpoints: readonly number[];
  scheme: FeatureIdScheme;
  /** What the patient says to a question its record does not speak to (simulate.ts RecordWorld); default closed. */
  world?: RecordWorld;
}

export interface TimedDialogue {
  run: DialogueRun;
  /** The differential shown at each checkpoint (disease ids and probabilities), for calibration. */
  shownAt: Map<number, { diseaseId: string; p: number }[]>;
  startMs: number;
  answerMs: number[];
}

export async function sessionDialogue(port: SessionPort, rec: NormalizedRecord, start: DialogueStart, opts: SessionDialogueOptions): Promise<TimedDialogue> {
  const max = Math.max(0, ...opts.checkpoints);
  const run: DialogueRun = { recordId: rec.id, topAt: new Map(), questionsToConfidence: null, topAtConfidence: null };
  const answerMs: number[] = [];
  const shownAt = new Map<number, { diseaseId: string; p: number }[]>();
  let t0 = performance.now();
  let view = await port.start(EVAL_OWNER, { findings: start.findings, age: start.age, sex: start.sex, ranker: opts.ranker, followUps: 1 });
  const startMs = performance.now() - t0;
  for (let asked = 0; ; asked++) {
    const top = view.differential[0]?.diseaseId ?? '';
    const shown = view.differential.map((d) => ({ diseaseId: d.diseaseId, p: d.probability }));
    if (opts.checkpoints.includes(asked)) {
      run.topAt.set(asked, top);
      shownAt.set(asked, shown);
    }
    if (view.stop.reason === 'confident' && run.questionsToConfidence === null) {
      run.questionsToConfidence = asked;
      run.topAtConfidence = top;
    }
    const next = view.questions[0];
    if (asked >= max || !next) {
      for (const k of opts.checkpoints) if (k > asked) { run.topAt.set(k, top); shownAt.set(k, shown); } // nothing left to ask
      await port.end(EVAL_OWNER, view.sessionId); // a finished dialogue frees its place (sessions are per-owner bounded)
      return { run, shownAt, startMs, answerMs };
    }
    t0 = performance.now();
    view = await port.answer(EVAL_OWNER, view.sessionId, { answers: [{ questionId: next.id, answer: patientAnswer(next, rec, opts.scheme, opts.world) }] });
    answerMs.push(performance.now() - t0);
  }
}
