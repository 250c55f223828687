import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The config sections' shapes and defaults: loadConfig fills them from the environment, and hand-built
// configs (tests) fall back to them where a section is absent.

/** The model `npm run setup` installs (scripts/fetch-smollm2.sh), the default of DXGRAPH_LLM_MODEL: the shipped Q4_1 weights re-stored as Q8_0 (prompts cost ~0.6x the CPU, docs/llm.md). */
export const DEFAULT_LOCAL_MODEL_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '.models', 'smollm2', 'SmolLM2-135M-Instruct.Q8_0.gguf');

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
