import type { CdsConfig } from '../cds-hooks/cds-config.js';
import type { RecordRetrieval } from '../query/retrieve-records.js';
import type { LimitsConfig, ReportsConfig, SessionsConfig } from './defaults.js';
import type { Env } from './env-schema.js';
import type { PriorWeightsConfig } from './prior-weights.js';
import type { SessionStoreConfig } from './session-store.js';

export interface Config {
  neo4j: { uri: string; user: string; password: string; database: string };
  dataDir: string;
  http: {
    host: string;
    port: number;
    apiKeys: string[];
    apiKeyFile: string | null;
    maxTextChars: number;
    /** Absent (hand-built configs in tests) = no rate limit; loadConfig always fills it. */
    rateLimit?: { max: number; windowMs: number };
    /** Absent or empty = no CORS headers at all. */
    corsOrigins?: string[];
  };
  logLevel: Env['DXGRAPH_LOG_LEVEL'];
  embedder: { kind: 'hashed' | 'openai'; model: string };
  llm: LlmConfig;
  privacy: { dropDemographics: boolean };
  /** Absent (hand-built configs in tests) = DEFAULT_SESSIONS; loadConfig always fills it. */
  sessions?: SessionsConfig;
  /** Absent (hand-built configs in tests) = gate off; loadConfig always fills it. */
  gate?: { mode: 'auto' | 'on' | 'off'; theta1: number | null; theta2: number | null };
  /** Absent (hand-built configs in tests) = cache on; loadConfig always fills it. */
  query?: { differencesCache: boolean; recordRetrieval?: RecordRetrieval };
  /** Absent (hand-built configs in tests) = DEFAULT_LIMITS; loadConfig always fills it. */
  limits?: LimitsConfig;
  /** Prior weights of the offline evidence reasoner that DXGRAPH_PRIOR_WEIGHTS sets; absent or empty = the reasoner's defaults. */
  priorWeights?: PriorWeightsConfig;
  /** Where consultation sessions live (DXGRAPH_SESSIONS); absent (hand-built configs in tests) = memory. */
  sessionStore?: SessionStoreConfig;
  /** Diagnose worker threads (DXGRAPH_QUERY_WORKERS); absent (hand-built configs in tests) or 0 = diagnose on the event loop. */
  queryWorkers?: number;
  /** Low-priority diagnose workers beside them (DXGRAPH_QUERY_WORKERS_BACKGROUND, pool-lanes.ts); absent or 0 = one lane. */
  queryBackgroundWorkers?: number;
  /** LLM reports (DXGRAPH_REPORT*); absent (hand-built configs in tests) = DEFAULT_REPORTS. */
  reports?: ReportsConfig;
  /** CDS Hooks (DXGRAPH_CDS_*, src/cds-hooks/cds-config.ts); absent (hand-built configs in tests) = DEFAULT_CDS. */
  cds?: CdsConfig;
}

export interface LlmConfig {
  enabled: boolean;
  /** Absent (hand-built configs in tests) = 'openai'; loadConfig always fills it. */
  provider?: 'openai' | 'local';
  /** The OpenAI-compatible model name (DXGRAPH_CHAT_MODEL). */
  model: string;
  apiKey: string;
  baseUrl: string | null;
  timeoutMs: number;
  /** Client-level retries of an endpoint's 429 / 5xx / connection errors (DXGRAPH_LLM_MAX_RETRIES); absent = 1. */
  maxRetries?: number;
  /** The in-process model (DXGRAPH_LLM=local). */
  local?: { modelPath: string; contextSize: number; threads: number; maxTokens: number };
  /** Whether free text is decomposed by the LLM; absent = true when enabled. */
  decompose?: boolean;
}
