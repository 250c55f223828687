import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { ConfigError } from './errors.js';
import { loadCdsConfig } from './cds-hooks/cds-config.js';
import type { Config } from './config/config-types.js';
import { DEFAULT_LIMITS, LOCAL_LLM_DEFAULTS } from './config/defaults.js';
import { EnvSchema } from './config/env-schema.js';
import { priorWeights } from './config/prior-weights.js';
import { sessionStore } from './config/session-store.js';

// The sections, the schema and the types live in src/config/; callers import them from here.
export { DEFAULT_LIMITS, DEFAULT_LOCAL_MODEL_PATH, DEFAULT_REPORTS, DEFAULT_SESSIONS, LOCAL_LLM_DEFAULTS, type LimitsConfig, type ReportsConfig, type SessionsConfig } from './config/defaults.js';
export type { Env } from './config/env-schema.js';
export type { Config, LlmConfig } from './config/config-types.js';
export type { PriorWeightsConfig } from './config/prior-weights.js';
export type { SessionStoreConfig } from './config/session-store.js';

/**
 * Typed configuration, read from the environment once at start-up and validated.
 * A bad value fails fast with a message naming the variable (practica style).
 * Parse and validate `env` (defaults to process.env). Throws ConfigError naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(EnvSchema.shape).flatMap((k) => (env[k] !== undefined && env[k] !== '' ? [[k, env[k]]] : [])),
  );
  const parsed = EnvSchema.safeParse(relevant);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`${name}: ${issue.message} (got ${JSON.stringify(env[name] ?? '')})`);
  }
  const e = parsed.data;
  if (e.DXGRAPH_GATE_THETA1 !== undefined && e.DXGRAPH_GATE_THETA2 !== undefined && e.DXGRAPH_GATE_THETA2 > e.DXGRAPH_GATE_THETA1) {
    throw new ConfigError(`DXGRAPH_GATE_THETA2: must not exceed DXGRAPH_GATE_THETA1 (got ${e.DXGRAPH_GATE_THETA2} > ${e.DXGRAPH_GATE_THETA1})`);
  }
  const provider = e.DXGRAPH_LLM === 'local' ? 'local' : 'openai';
  const llmEnabled = e.DXGRAPH_LLM === 'openai' || e.DXGRAPH_LLM === 'local' || (e.DXGRAPH_LLM === 'auto' && (e.OPENAI_API_KEY !== '' || e.OPENAI_BASE_URL !== ''));
  if (e.DXGRAPH_EMBEDDER === 'openai' && e.OPENAI_API_KEY === '' && e.OPENAI_BASE_URL === '') {
    throw new ConfigError('DXGRAPH_EMBEDDER: "openai" needs OPENAI_API_KEY or OPENAI_BASE_URL');
  }
  return {
    neo4j: { uri: e.NEO4J_URI, user: e.NEO4J_USER, password: e.NEO4J_PASSWORD, database: e.NEO4J_DATABASE },
    dataDir: e.DXGRAPH_DATA_DIR,
    http: {
      host: e.HOST,
      port: e.PORT,
      apiKeys: e.DXGRAPH_API_KEYS.split(',').map((s) => s.trim()).filter(Boolean),
      apiKeyFile: e.DXGRAPH_API_KEY_FILE || null,
      maxTextChars: e.DXGRAPH_MAX_TEXT_CHARS,
      rateLimit: { max: e.DXGRAPH_RATE_LIMIT_MAX, windowMs: e.DXGRAPH_RATE_LIMIT_WINDOW_MS },
      corsOrigins: e.DXGRAPH_CORS_ORIGINS.split(',').map((s) => s.trim().replace(/\/$/, '')).filter(Boolean),
    },
    logLevel: e.DXGRAPH_LOG_LEVEL,
    embedder: { kind: e.DXGRAPH_EMBEDDER, model: e.DXGRAPH_EMBED_MODEL },
    llm: {
      enabled: llmEnabled,
      model: e.DXGRAPH_CHAT_MODEL,
      apiKey: e.OPENAI_API_KEY || 'not-needed',
      baseUrl: e.OPENAI_BASE_URL || null,
      timeoutMs: e.DXGRAPH_LLM_TIMEOUT_MS ?? (provider === 'local' ? LOCAL_LLM_DEFAULTS.timeoutMs : 30_000),
      maxRetries: e.DXGRAPH_LLM_MAX_RETRIES,
      provider,
      local: { modelPath: resolve(e.DXGRAPH_LLM_MODEL), contextSize: e.DXGRAPH_LLM_CONTEXT, threads: e.DXGRAPH_LLM_THREADS, maxTokens: e.DXGRAPH_LLM_MAX_TOKENS },
      decompose: llmEnabled && (e.DXGRAPH_LLM_DECOMPOSE === 'on' || (e.DXGRAPH_LLM_DECOMPOSE === 'auto' && provider === 'openai')),
    },
    privacy: { dropDemographics: e.DXGRAPH_DROP_DEMOGRAPHICS },
    sessions: {
      ttlMs: e.DXGRAPH_SESSION_TTL_MS,
      maxSessions: e.DXGRAPH_SESSION_MAX,
      stopConfidence: e.DXGRAPH_STOP_CONFIDENCE,
      ranker: e.DXGRAPH_FOLLOWUP_RANKER,
      maxPerKey: e.DXGRAPH_SESSION_MAX_PER_KEY,
      maxTurns: e.DXGRAPH_SESSION_MAX_TURNS,
      lifetimeMs: e.DXGRAPH_SESSION_LIFETIME_MS,
    },
    gate: { mode: e.DXGRAPH_GATE, theta1: e.DXGRAPH_GATE_THETA1 ?? null, theta2: e.DXGRAPH_GATE_THETA2 ?? null },
    query: { differencesCache: e.DXGRAPH_DIFFERENCES_CACHE, recordRetrieval: e.DXGRAPH_RECORD_RETRIEVAL },
    priorWeights: priorWeights(e.DXGRAPH_PRIOR_WEIGHTS),
    sessionStore: sessionStore(e.DXGRAPH_SESSIONS, e.DXGRAPH_SESSION_KEY),
    queryWorkers: e.DXGRAPH_QUERY_WORKERS === 'auto' ? availableParallelism() : e.DXGRAPH_QUERY_WORKERS,
    queryBackgroundWorkers: e.DXGRAPH_QUERY_WORKERS_BACKGROUND === 'auto' ? availableParallelism() : e.DXGRAPH_QUERY_WORKERS_BACKGROUND,
    cds: loadCdsConfig(env),
    reports: { ttlMs: e.DXGRAPH_REPORT_TTL_MS, maxReports: e.DXGRAPH_REPORTS_MAX, maxRunning: e.DXGRAPH_REPORTS_RUNNING },
    limits: {
      maxFindings: e.DXGRAPH_MAX_FINDINGS,
      maxResponseBytes: e.DXGRAPH_MAX_RESPONSE_BYTES,
      admission: {
        maxActive: e.DXGRAPH_DIAGNOSE_CONCURRENCY,
        maxActivePerClient: Math.min(e.DXGRAPH_DIAGNOSE_CONCURRENCY_PER_CLIENT, e.DXGRAPH_DIAGNOSE_CONCURRENCY),
        maxQueued: e.DXGRAPH_DIAGNOSE_QUEUE,
        maxQueuedPerClient: e.DXGRAPH_DIAGNOSE_QUEUE_PER_CLIENT,
      },
      loopCost: { msPerSecond: e.DXGRAPH_CLIENT_LOOP_MS_PER_S, burstMs: e.DXGRAPH_CLIENT_LOOP_BURST_MS },
      llmBudget: { wallMs: e.DXGRAPH_LLM_BUDGET_MS ?? (provider === 'local' ? LOCAL_LLM_DEFAULTS.budgetMs : DEFAULT_LIMITS.llmBudget.wallMs), maxCalls: e.DXGRAPH_LLM_MAX_CALLS },
      readyCacheMs: e.DXGRAPH_READY_CACHE_MS,
      shutdown: { drainMs: e.DXGRAPH_SHUTDOWN_DRAIN_MS, lingerMs: e.DXGRAPH_SHUTDOWN_LINGER_MS },
    },
  };
}
