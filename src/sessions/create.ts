/**
 * Wiring for the server and the evaluation harness: a Consultation over the query service
 * (its `diagnose` scores the first turn) and the KG snapshot it serves (the follow-up engine
 * updates the differential with the answers and picks the questions). The HTTP server calls this once at start-up and mounts
 * `createSessionRouter`.
 */
import { FollowupEngine } from '../followups/engine.js';
import { FollowupModel, type ModelOptions } from '../followups/model.js';
import { buildQuestionCatalogue, type AnswerTypeHints } from '../followups/question-model.js';
import { followupKgFromSnapshot } from '../followups/snapshot-kg.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import { Consultation, type ConsultationOptions, type DiagnosePort, type SessionState } from './consultation.js';
import { SessionStore } from './session-store.js';

export interface SessionLimits {
  maxSessions: number;
  maxPerOwner: number;
  ttlMs: number;
  lifetimeMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxSessions: 1000, maxPerOwner: 100, ttlMs: 30 * 60_000, lifetimeMs: 4 * 3_600_000 };

export interface ConsultationWiring {
  snapshot: Pick<KgSnapshot, 'diseases' | 'features' | 'manifestations'>;
  /** The query pipeline: a session's first turn is one `diagnose` call (consultation.ts). */
  query: DiagnosePort;
  /** Extra answer types per source code, over those the KG's features carry (question-model.ts). */
  hints?: AnswerTypeHints;
  model?: Partial<ModelOptions>;
  sessions?: Partial<SessionLimits> & { now?: () => number };
  options?: Partial<ConsultationOptions>;
}

export function createConsultation(w: ConsultationWiring): Consultation {
  const model = new FollowupModel(followupKgFromSnapshot(w.snapshot), w.model ?? {});
  const engine = new FollowupEngine(model, buildQuestionCatalogue(model.features, { ...(w.hints ? { hints: w.hints } : {}), counts: model }));
  const now = w.sessions?.now ?? Date.now;
  const { now: _now, ...limits } = w.sessions ?? {};
  const store = new SessionStore<SessionState>({ ...DEFAULT_SESSION_LIMITS, ...limits, now });
  return new Consultation({ engine, store, query: w.query, now }, w.options ?? {});
}
