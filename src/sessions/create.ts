/**
 * Wiring for the server: a Consultation over the KG snapshot the query side serves.
 * The HTTP server calls this once at start-up and mounts `createSessionRouter`.
 */
import { FollowupEngine } from '../followups/engine.js';
import { FollowupModel, type ModelOptions } from '../followups/model.js';
import { buildQuestionCatalogue, type AnswerTypeHints } from '../followups/question-model.js';
import { followupKgFromSnapshot } from '../followups/snapshot-kg.js';
import type { DiagnoseInput, DiagnoseResult } from '../query/contracts.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import { Consultation, type ConsultationOptions, type SessionState } from './consultation.js';
import { codedInterpreter, pipelineInterpreter } from './interpreter.js';
import { SessionStore } from './session-store.js';

export interface ConsultationWiring {
  snapshot: Pick<KgSnapshot, 'diseases' | 'features' | 'manifestations'>;
  /** The query pipeline, for free-text first descriptions; without it only coded findings are read. */
  query?: { diagnose(input: DiagnoseInput): Promise<DiagnoseResult> } | null;
  /** Answer types per source code (e.g. `ddxplusAnswerTypes`); inferred when absent. */
  hints?: AnswerTypeHints;
  model?: Partial<ModelOptions>;
  sessions?: { maxSessions?: number; ttlMs?: number; now?: () => number };
  options?: Partial<ConsultationOptions>;
}

export function createConsultation(w: ConsultationWiring): Consultation {
  const model = new FollowupModel(followupKgFromSnapshot(w.snapshot), w.model ?? {});
  const engine = new FollowupEngine(model, buildQuestionCatalogue(model.features, w.hints ? { hints: w.hints } : {}));
  const now = w.sessions?.now ?? Date.now;
  const store = new SessionStore<SessionState>({ maxSessions: w.sessions?.maxSessions ?? 1000, ttlMs: w.sessions?.ttlMs ?? 30 * 60_000, now });
  const interpreter = w.query ? pipelineInterpreter(model, w.query) : codedInterpreter(model);
  return new Consultation({ engine, store, interpreter, now }, w.options ?? {});
}
