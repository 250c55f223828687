import { z } from 'zod';
import { DEFAULT_RECORD_RETRIEVAL, RECORD_RETRIEVALS } from '../query/retrieve-records.js';
import { DEFAULT_LIMITS, DEFAULT_LOCAL_MODEL_PATH, DEFAULT_REPORTS, DEFAULT_SESSIONS } from './defaults.js';

const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/**
 * The environment variables loadConfig reads: each one's bounds, default and the message a bad
 * value fails with (loadConfig prefixes the variable's name and quotes the value).
 */
export const EnvSchema = z.object({
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
  /** The offline reasoner's prior weights, "vote=0.5,keyDifferences=0.25,knn=1" (any subset; docs/query.md, ablation in docs/notes.md); knowledge=0 leaves out the source's curated rates (docs/free-text.md). */
  DXGRAPH_PRIOR_WEIGHTS: z
    .string()
    .regex(/^\s*(?:(?:vote|keyDifferences|knn|profiles|knowledge)=\d+(?:\.\d+)?\s*(?:,\s*|$))+$/, 'must look like vote=0.5,keyDifferences=0.25,knn=1,profiles=40,knowledge=10 (numbers >= 0)')
    .optional(),
  OPENAI_API_KEY: z.string().default(''),
  OPENAI_BASE_URL: z.union([z.literal(''), z.url()]).default(''),
});

export type Env = z.infer<typeof EnvSchema>;
