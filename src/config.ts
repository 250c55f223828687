import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DEFAULT_RECORD_RETRIEVAL, RECORD_RETRIEVALS, type RecordRetrieval } from './query/retrieve-records.js';
import { ConfigError } from './errors.js';
import { SessionKey } from './sessions/sealed-content.js';

/** The model `npm run setup` installs (scripts/fetch-smollm2.sh), the default of DXGRAPH_LLM_MODEL: the shipped Q4_1 weights re-stored as Q8_0 (prompts cost ~0.6x the CPU, docs/llm.md). */
export const DEFAULT_LOCAL_MODEL_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '..', '.models', 'smollm2', 'SmolLM2-135M-Instruct.Q8_0.gguf');
import { loadCdsConfig, type CdsConfig } from './cds-hooks/cds-config.js';

/**
 * Typed configuration, read from the environment once at start-up and validated.
 * A bad value fails fast with a message naming the variable (practica style).
 */
const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

export interface SessionsConfig {
  /** Sliding expiry of an unused consultation session. */
  ttlMs: number;
  /** Live sessions kept; the least recently used is evicted past this. */
  maxSessions: number;
  /** Top-disease probability at which a response signals "stop asking". */
  stopConfidence: number;
  /** Default follow-up ranker (sessions and /v1/diagnose); information gain measured better. */
  ranker: 'information-gain' | 'sigma';
  /** Live sessions one API key (or, without keys, the one local owner) may hold; past it a create is refused (429). */
  maxPerKey: number;
  /** Answers recorded per session (each changed answer counts one, identical repeats none); past it answers are refused (409). */
  maxTurns: number;
  /** Absolute lifetime from creation, however often the session is used (besides the sliding TTL). */
  lifetimeMs: number;
}

export const DEFAULT_SESSIONS: SessionsConfig = {
  ttlMs: 30 * 60_000, maxSessions: 1000, stopConfidence: 0.9, ranker: 'information-gain', maxPerKey: 100, maxTurns: 200, lifetimeMs: 4 * 3_600_000,
};

/** Issue 48: LLM reports fetched apart from the differential (src/reports, docs/llm.md). */
export interface ReportsConfig {
  /** How long a report's href answers after the diagnose that asked for it (DXGRAPH_REPORT_TTL_MS). */
  ttlMs: number;
  /** Live reports kept (pending or settled; DXGRAPH_REPORTS_MAX): past it a diagnose answers without one. */
  maxReports: number;
  /** LLM reports running at once in one process (DXGRAPH_REPORTS_RUNNING). */
  maxRunning: number;
}

export const DEFAULT_REPORTS: ReportsConfig = { ttlMs: 10 * 60_000, maxReports: 1000, maxRunning: 4 };

/**
 * A local CPU model's defaults when DXGRAPH_LLM_TIMEOUT_MS / DXGRAPH_LLM_BUDGET_MS are unset: its
 * report is written in the background (issue 48), so nothing waits on it but the report itself.
 * SmolLM2-135M took 25-38 s a diagnose here at load 2-10, and 150-165 s at load 30 on 2 CPUs
 * (docs/llm.md), past the endpoint defaults (30 s / 45 s) and past 150 s.
 */
export const LOCAL_LLM_DEFAULTS = { timeoutMs: 300_000, budgetMs: 360_000 } as const;

/** Issue 18: bounds on what one request may cost, and the server's shutdown and probe timing (docs/security.md). */
export interface LimitsConfig {
  /** Findings per request after decomposition (text and structured together). */
  maxFindings: number;
  /** Largest /v1/diagnose answer: a full trace above it is answered with the summary trace. */
  maxResponseBytes: number;
  /** Diagnose work (diagnose and session turns) running at once (in total, per client) and waiting (in total, per client). */
  admission: { maxActive: number; maxActivePerClient: number; maxQueued: number; maxQueuedPerClient: number };
  /** Event-loop time a client earns per second and may bank (cost-aware rate limit; 0 ms/s = off). */
  loopCost: { msPerSecond: number; burstMs: number };
  /** One LLM budget per request across knowledge filter, reasoner and gate. */
  llmBudget: { wallMs: number; maxCalls: number };
  /** How long /readyz reuses its Neo4j check. */
  readyCacheMs: number;
  /** SIGTERM: idle keep-alive sockets get `lingerMs` to send one last request, everything ends by `drainMs`. */
  shutdown: { drainMs: number; lingerMs: number };
}

export const DEFAULT_LIMITS: LimitsConfig = {
  maxFindings: 200,
  maxResponseBytes: 2 * 1024 * 1024,
  admission: { maxActive: 4, maxActivePerClient: 2, maxQueued: 64, maxQueuedPerClient: 16 },
  loopCost: { msPerSecond: 300, burstMs: 5000 },
  llmBudget: { wallMs: 45_000, maxCalls: 16 },
  readyCacheMs: 2000,
  shutdown: { drainMs: 10_000, lingerMs: 1000 },
};

const EnvSchema = z.object({
  NEO4J_URI: z
    .string()
    .regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\/(\[[0-9a-fA-F:]+\]|[^\s/:\[\]]+)(:\d{1,5})?\/?$/, 'must look like bolt://host:7687 or neo4j://host:7687')
    .default('bolt://127.0.0.1:7687'),
  NEO4J_USER: z.string().min(1).default('neo4j'),
  NEO4J_PASSWORD: z.string().default(''),
  NEO4J_DATABASE: z.string().min(1).default('neo4j'),
  DXGRAPH_DATA_DIR: z.string().min(1).default('.dxgraph'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DXGRAPH_API_KEYS: z.string().default(''),
  DXGRAPH_API_KEY_FILE: z.string().default(''),
  DXGRAPH_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DXGRAPH_EMBEDDER: z.enum(['hashed', 'openai']).default('hashed'),
  DXGRAPH_EMBED_MODEL: z.string().default('text-embedding-3-small'),
  DXGRAPH_CHAT_MODEL: z.string().default('gpt-4o-mini'),
  DXGRAPH_LLM: z.enum(['auto', 'none', 'openai', 'local']).default('auto'),
  // Issue 27: DXGRAPH_LLM=local runs a GGUF model in process (node-llama-cpp, docs/llm.md).
  DXGRAPH_LLM_MODEL: z.string().min(1).refine((v) => v.endsWith('.gguf'), 'must name a .gguf file').default(DEFAULT_LOCAL_MODEL_PATH),
  DXGRAPH_LLM_CONTEXT: z.coerce.number().int().min(512).max(131_072).default(8192),
  // 1 thread by default: on a busy 2-CPU machine llama.cpp's threads spin-waiting on each other stalled generation (docs/llm.md).
  DXGRAPH_LLM_THREADS: z.coerce.number().int().min(0).max(256).default(1),
  DXGRAPH_LLM_MAX_TOKENS: z.coerce.number().int().min(16).max(32_768).default(768),
  // LLM decomposition of free text (MedRAG eq. 8): auto = with an OpenAI-compatible model only; a
  // small local model's concepts are worse than the rule path's (docs/llm.md).
  DXGRAPH_LLM_DECOMPOSE: z.enum(['auto', 'on', 'off']).default('auto'),
  // Unset: 30 s for an endpoint, LOCAL_LLM_DEFAULTS for a local model.
  DXGRAPH_LLM_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  DXGRAPH_LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(1),
  DXGRAPH_MAX_TEXT_CHARS: z.coerce.number().int().positive().default(40000), // fits a 40,000-character discharge summary (issue 47); an abuse guard, not a note size
  DXGRAPH_DROP_DEMOGRAPHICS: boolish.default(false),
  // Issue 10: requests per window per API key (per client IP without keys); 0 turns it off.
  DXGRAPH_RATE_LIMIT_MAX: z.coerce.number().int().min(0).default(600),
  DXGRAPH_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
  // Browser origins allowed to call the API cross-origin (comma-separated); empty = no CORS headers.
  DXGRAPH_CORS_ORIGINS: z
    .string()
    .regex(/^\s*(https?:\/\/[^\s/,*]+(:\d+)?\s*(,\s*https?:\/\/[^\s/,*]+(:\d+)?\s*)*)?$/, 'must be comma-separated origins like https://copilot.example.org (no paths, no *)')
    .default(''),
  // Issue 6: consultation sessions (sliding TTL, LRU bound) and follow-up questions.
  DXGRAPH_SESSION_TTL_MS: z.coerce.number().int().min(1000).max(7 * 86_400_000).default(DEFAULT_SESSIONS.ttlMs),
  DXGRAPH_SESSION_MAX: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_SESSIONS.maxSessions),
  DXGRAPH_STOP_CONFIDENCE: z.coerce.number().gt(0).max(1).default(DEFAULT_SESSIONS.stopConfidence),
  DXGRAPH_FOLLOWUP_RANKER: z.enum(['information-gain', 'sigma']).default(DEFAULT_SESSIONS.ranker),
  // Issue 18: sessions per key, turns per session, absolute lifetime.
  DXGRAPH_SESSION_MAX_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_SESSIONS.maxPerKey),
  DXGRAPH_SESSION_MAX_TURNS: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_SESSIONS.maxTurns),
  DXGRAPH_SESSION_LIFETIME_MS: z.coerce.number().int().min(1000).max(7 * 86_400_000).default(DEFAULT_SESSIONS.lifetimeMs),
  // Issue 28: where sessions live (neo4j: shared by replicas, content sealed under DXGRAPH_SESSION_KEY, checked below).
  DXGRAPH_SESSIONS: z.enum(['memory', 'neo4j']).default('memory'),
  DXGRAPH_SESSION_KEY: z.string().optional(),
  // Issue 28: diagnose on worker threads (src/query/diagnose-pool.ts); auto = one per core, 0 = on the event loop.
  DXGRAPH_QUERY_WORKERS: z.union([z.literal('auto'), z.coerce.number().int().min(0).max(64)]).default(0),
  // With workers: extra low-priority ones for a client's concurrent diagnoses (src/query/pool-lanes.ts); auto = one per core.
  DXGRAPH_QUERY_WORKERS_BACKGROUND: z.union([z.literal('auto'), z.coerce.number().int().min(0).max(64)]).default(0),
  // Issue 7: information-density gate (docs/gate.md). Default off, measured (issue 19, docs/gate.md
  // "Default: off"): on the DDXPlus eval it costs 0.3-0.5 points top-1 and saves 2-3% latency on
  // free text. 'auto' turns it on when the build has a classifier.
  // Thresholds unset = the build's calibrated ones (else FIND's).
  DXGRAPH_GATE: z.enum(['auto', 'on', 'off']).default('off'),
  DXGRAPH_GATE_THETA1: z.coerce.number().min(0).max(1).optional(),
  DXGRAPH_GATE_THETA2: z.coerce.number().min(0).max(1).optional(),
  // Issue 11: keep each subcategory's differences KG after its first Neo4j read (src/query/differences-kg-cache.ts).
  DXGRAPH_DIFFERENCES_CACHE: boolish.default(true),
  // Issue 18: per-request bounds, diagnose admission, LLM budget, probe cache, shutdown.
  DXGRAPH_MAX_FINDINGS: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_LIMITS.maxFindings),
  DXGRAPH_MAX_RESPONSE_BYTES: z.coerce.number().int().min(65_536).max(1024 ** 3).default(DEFAULT_LIMITS.maxResponseBytes),
  DXGRAPH_DIAGNOSE_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(DEFAULT_LIMITS.admission.maxActive),
  DXGRAPH_DIAGNOSE_CONCURRENCY_PER_CLIENT: z.coerce.number().int().min(1).max(1024).default(DEFAULT_LIMITS.admission.maxActivePerClient),
  DXGRAPH_CLIENT_LOOP_MS_PER_S: z.coerce.number().int().min(0).max(1000).default(DEFAULT_LIMITS.loopCost.msPerSecond),
  DXGRAPH_CLIENT_LOOP_BURST_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_LIMITS.loopCost.burstMs),
  DXGRAPH_DIAGNOSE_QUEUE: z.coerce.number().int().min(0).max(100_000).default(DEFAULT_LIMITS.admission.maxQueued),
  DXGRAPH_DIAGNOSE_QUEUE_PER_CLIENT: z.coerce.number().int().min(0).max(100_000).default(DEFAULT_LIMITS.admission.maxQueuedPerClient),
  DXGRAPH_LLM_BUDGET_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  // Issue 48: LLM reports (src/reports).
  DXGRAPH_REPORT_TTL_MS: z.coerce.number().int().min(1000).max(7 * 86_400_000).default(DEFAULT_REPORTS.ttlMs),
  DXGRAPH_REPORTS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_REPORTS.maxReports),
  DXGRAPH_REPORTS_RUNNING: z.coerce.number().int().min(1).max(1024).default(DEFAULT_REPORTS.maxRunning),
  DXGRAPH_LLM_MAX_CALLS: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_LIMITS.llmBudget.maxCalls),
  DXGRAPH_READY_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(DEFAULT_LIMITS.readyCacheMs),
  DXGRAPH_SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_LIMITS.shutdown.drainMs),
  DXGRAPH_SHUTDOWN_LINGER_MS: z.coerce.number().int().min(0).max(60_000).default(DEFAULT_LIMITS.shutdown.lingerMs),
  /** How similar records are found: by meaning (FAISS), by words (TF-IDF) or both (retrieve-records.ts; docs/notes.md). */
  DXGRAPH_RECORD_RETRIEVAL: z.enum(RECORD_RETRIEVALS).default(DEFAULT_RECORD_RETRIEVAL),
  /** The offline reasoner's prior weights, "vote=0.5,keyDifferences=0.25,knn=1" (any subset; docs/query.md, ablation in docs/notes.md). */
  DXGRAPH_PRIOR_WEIGHTS: z
    .string()
    .regex(/^\s*(?:(?:vote|keyDifferences|knn|profiles)=\d+(?:\.\d+)?\s*(?:,\s*|$))+$/, 'must look like vote=0.5,keyDifferences=0.25,knn=1,profiles=40 (numbers >= 0)')
    .optional(),
  OPENAI_API_KEY: z.string().default(''),
  OPENAI_BASE_URL: z.union([z.literal(''), z.url()]).default(''),
});

export type Env = z.infer<typeof EnvSchema>;

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

/** In this process, or in Neo4j shared by replicas with the content sealed under `key` (docs/deployment.md). */
export type SessionStoreConfig = { kind: 'memory' } | { kind: 'neo4j'; key: SessionKey };

/**
 * DXGRAPH_SESSIONS + DXGRAPH_SESSION_KEY. The key is checked here and not by the schema so that
 * no error message ever repeats it (loadConfig's messages quote the value they reject).
 */
function sessionStore(kind: 'memory' | 'neo4j', keyText: string | undefined): SessionStoreConfig {
  const key = keyText === undefined ? null : SessionKey.parse(keyText);
  if (keyText !== undefined && key === null) throw new ConfigError('DXGRAPH_SESSION_KEY: must be 32 random bytes as 64 hex digits or base64, e.g. from `openssl rand -hex 32` (value not shown)');
  if (kind === 'memory') return { kind };
  if (key === null) throw new ConfigError('DXGRAPH_SESSION_KEY: required with DXGRAPH_SESSIONS=neo4j (session content is stored encrypted under it); generate one with `openssl rand -hex 32`');
  return { kind, key };
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

export interface PriorWeightsConfig {
  voteWeight?: number;
  keyDifferenceWeight?: number;
  knnWeight?: number;
  profileWeight?: number;
}

const PRIOR_NAMES: Readonly<Record<string, keyof PriorWeightsConfig>> = { vote: 'voteWeight', keyDifferences: 'keyDifferenceWeight', knn: 'knnWeight', profiles: 'profileWeight' };

function priorWeights(spec: string | undefined): PriorWeightsConfig {
  const out: PriorWeightsConfig = {};
  for (const part of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, value] = part.split('=');
    out[PRIOR_NAMES[name!.trim()]!] = Number(value);
  }
  return out;
}

/** Parse and validate `env` (defaults to process.env). Throws ConfigError naming the variable. */
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
