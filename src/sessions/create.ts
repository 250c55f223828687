/**
 * Wiring for the server and the evaluation harness: a Consultation over the query service
 * (its `diagnose` scores the first turn) and the KG snapshot it serves (the follow-up engine
 * updates the differential with the answers and picks the questions). The HTTP server calls
 * `openConsultation` once at start-up (sessions in memory or in Neo4j, DXGRAPH_SESSIONS) and
 * mounts `createSessionRouter`; the evaluation harness uses `createConsultation` (memory).
 */
import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import { FollowupEngine } from '../followups/engine.js';
import { FollowupModel, type ModelOptions } from '../followups/model.js';
import { buildQuestionCatalogue, type AnswerTypeHints } from '../followups/question-model.js';
import { followupKgFromSnapshot } from '../followups/snapshot-kg.js';
import type { PosteriorCalibration } from '../calibration/temperature.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import { typicalRecordLength } from '../reasoners/scoring-naive-bayes.js';
import { Consultation, type ConsultationOptions, type DiagnosePort, type SessionState } from './consultation.js';
import { MemorySessionRepository } from './memory-repository.js';
import { Neo4jSessionRepository } from './neo4j-repository.js';
import type { SessionRepository } from './repository.js';
import type { SessionKey } from './sealed-content.js';
import { decodeState, encodeState } from './session-codec.js';

export interface SessionLimits {
  maxSessions: number;
  maxPerOwner: number;
  ttlMs: number;
  lifetimeMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxSessions: 1000, maxPerOwner: 100, ttlMs: 30 * 60_000, lifetimeMs: 4 * 3_600_000 };

export interface ConsultationWiring {
  snapshot: Pick<KgSnapshot, 'diseases' | 'features' | 'manifestations' | 'totalRecords' | 'meanFeaturesPerRecord'> & { buildId?: string | null };
  /** The query pipeline: a session's first turn is one `diagnose` call (consultation.ts). */
  query: DiagnosePort;
  /** Extra answer types per source code, over those the KG's features carry (question-model.ts). */
  hints?: AnswerTypeHints;
  model?: Partial<ModelOptions>;
  sessions?: Partial<SessionLimits> & { now?: () => number };
  options?: Partial<ConsultationOptions>;
  /** The KG's newest complete build (server: Neo4j), to tell a retired session from one this replica is behind on. */
  newestBuild?: () => Promise<string | null>;
  /** The build's posterior calibration (the query service's): the differential after answers is shown calibrated, as diagnose's is. */
  calibration?: PosteriorCalibration | null;
}

/** Where sessions live: this process, or Neo4j shared by replicas with content sealed under `key`. */
export type SessionStoreSpec = { kind: 'memory' } | { kind: 'neo4j'; graph: Pick<GraphStore, 'read' | 'write' | 'writeAll' | 'once'>; key: SessionKey };

export interface OpenedConsultation {
  consultation: Consultation;
  /** Deletes expired sessions now (a no-op in memory, which sweeps as it goes); the server runs it on a timer. */
  purgeExpired(): Promise<number>;
}

/** Sessions in memory: tests, the evaluation harness, one process. */
export function createConsultation(w: ConsultationWiring): Consultation {
  const engine = followupEngine(w);
  return consult(w, engine, new MemorySessionRepository<SessionState>(bounds(w)));
}

export async function openConsultation(w: ConsultationWiring & { store: SessionStoreSpec }): Promise<OpenedConsultation> {
  const engine = followupEngine(w);
  if (w.store.kind === 'memory') return { consultation: consult(w, engine, new MemorySessionRepository<SessionState>(bounds(w))), purgeExpired: async () => 0 };
  const repo = await Neo4jSessionRepository.open<SessionState>({
    ...bounds(w), graph: w.store.graph, key: w.store.key, codec: { encode: encodeState, decode: (t) => decodeState(t, engine.catalogue) },
  });
  return { consultation: consult(w, engine, repo), purgeExpired: () => repo.purgeExpired() };
}

function followupEngine(w: ConsultationWiring): FollowupEngine {
  const model = new FollowupModel(followupKgFromSnapshot(w.snapshot), w.model ?? {});
  return new FollowupEngine(model, buildQuestionCatalogue(model.features, { ...(w.hints ? { hints: w.hints } : {}), counts: model }));
}

function bounds(w: ConsultationWiring): SessionLimits & { now: () => number } {
  const { now = Date.now, ...limits } = w.sessions ?? {};
  return { ...DEFAULT_SESSION_LIMITS, ...limits, now };
}

function consult(w: ConsultationWiring, engine: FollowupEngine, store: SessionRepository<SessionState>): Consultation {
  const calibration = w.calibration ? { posterior: w.calibration, meanFeaturesPerRecord: typicalRecordLength(w.snapshot) } : null;
  const deps = { engine, store, query: w.query, buildId: w.snapshot.buildId ?? null, now: w.sessions?.now ?? Date.now, calibration, ...(w.newestBuild ? { newestBuild: w.newestBuild } : {}) };
  return new Consultation(deps, w.options ?? {});
}
