import { neo4jJtiClaims } from './cds-hooks/jti-claims.js';
import { GraphStore } from './adapters/neo4j/graph-store.js';
import { DEFAULT_LIMITS, DEFAULT_REPORTS, DEFAULT_SESSIONS, type Config } from './config.js';
import { assertSafeBinding, loadApiKeys } from './http/access.js';
import { createApp } from './http/app.js';
import { cachedProbe } from './http/cached-probe.js';
import { listen, type CloseOptions } from './http/listen.js';
import { Neo4jKgReader } from './http/neo4j-kg-reader.js';
import type { Logger } from './logger.js';
import type { DiagnoseService } from './http/ports.js';
import { errorMessage } from './errors.js';
import { DiagnosePool } from './query/diagnose-pool.js';
import type { QueryService } from './query/query-service.js';
import { chatModels, openServedQuery } from './query/served-query.js';
import { warmDifferencesQuery } from './query/warm-up.js';
import { openConsultation } from './sessions/create.js';
import { openReports } from './reports/open-reports.js';

/**
 * Start-up wiring for `dxgraph serve`: check access rules, connect Neo4j (fails with one
 * line), read the KG snapshot and open the FAISS indexes once, create the reasoners
 * (evidence always; LLM with fallback when configured), then listen. Everything the
 * app needs is built here and passed in; nothing below does I/O on import.
 */
export interface DxServer {
  url: string;
  port: number;
  query: QueryService;
  /** Stop accepting, answer in-flight and kept-alive requests with `Connection: close` (listen.ts), close the Neo4j driver. */
  close(opts?: CloseOptions): Promise<void>;
}

export interface StartServerOptions {
  config: Config;
  logger: Logger;
  /** Override config.http.host / port (CLI flags, tests with port 0). */
  host?: string;
  port?: number;
}

/** Expired sessions are unreadable at once; this only bounds how long their sealed content stays on disk. */
const PURGE_EVERY_MS = 60_000;

export async function startServer(opts: StartServerOptions): Promise<DxServer> {
  const { config, logger } = opts;
  const host = opts.host ?? config.http.host;
  const port = opts.port ?? config.http.port;
  const apiKeys = loadApiKeys(config.http);
  assertSafeBinding(host, apiKeys);

  const graph = new GraphStore(config.neo4j);
  let pool: DiagnosePool | null = null;
  try {
    // Fail fast while serving: a request should get its 503 in about a second, not after
    // the driver's default 30 s of transaction retries.
    await graph.connect({ maxRetryMs: 1000 });
    await loadLocalModel(config, logger);
    const limits = config.limits ?? DEFAULT_LIMITS;
    const loaded = await openServedQuery(config, logger, graph);
    // DXGRAPH_QUERY_WORKERS: diagnose (and a session's first turn) off the event loop.
    pool = (config.queryWorkers ?? 0) > 0 ? await DiagnosePool.open({ size: config.queryWorkers!, background: config.queryBackgroundWorkers ?? 0, config, buildId: loaded.snapshot.buildId, logger }) : null;
    const query: QueryService & Pick<DiagnoseService, 'diagnoseJson'> = pool ? { ...loaded, diagnose: pool.diagnose, diagnoseJson: pool.diagnoseJson } : loaded;
    const neo4jUp = cachedProbe(() => graph.ping(), { ttlMs: limits.readyCacheMs });
    // DXGRAPH_SESSIONS=neo4j: sessions shared by every replica on this database (docs/deployment.md).
    const store = config.sessionStore?.kind === 'neo4j' ? { kind: 'neo4j' as const, graph, key: config.sessionStore.key } : { kind: 'memory' as const };
    const newestBuild = async () => ((await graph.read('query/snapshot-build'))[0]?.id as string | undefined) ?? null;
    // With an LLM, its report is written in the background and fetched at an href (issue 48, src/reports).
    const reports = config.llm.enabled ? await openReports({ store, query, settings: config.reports ?? DEFAULT_REPORTS, logger }) : null;
    const sessions = await openConsultation({ snapshot: query.snapshot, query, store, newestBuild, calibration: query.artifacts.calibration, ...consultationSettings(config) });
    const app = createApp({
      query,
      kg: new Neo4jKgReader(graph),
      readiness: async () => ({
        neo4j: await neo4jUp(),
        indexes: query.snapshot.diseases.length > 0 && query.artifacts.featureIndex.size > 0,
      }),
      config: pool ? admitToPool(config, limits, pool.size) : config,
      apiKeys,
      logger,
      consultation: sessions.consultation,
      ...(reports ? { reports } : {}),
      // Replicas sharing sessions share the CDS replay guard too: a token replayed to another replica is refused.
      ...(store.kind === 'neo4j' ? { jtiClaims: neo4jJtiClaims(graph) } : {}),
    });
    const running = await listen(app, { host, port });
    // Neo4j plans the differences-KG query now rather than during the first clinician's question (warm-up.ts); a failure only costs that.
    void warmDifferencesQuery(graph, query.snapshot).catch((e: unknown) => logger.warn({ err: errorMessage(e) }, 'differences-KG warm-up failed'));
    const purge = setInterval(() => void sessions.purgeExpired().catch((e: unknown) => logger.warn({ err: errorMessage(e) }, 'expired-session purge failed')), PURGE_EVERY_MS).unref();
    logger.info(
      { url: running.url, buildId: query.snapshot.buildId, sessions: store.kind, queryWorkers: pool ? config.queryWorkers : 0, backgroundWorkers: pool ? (config.queryBackgroundWorkers ?? 0) : 0, diseases: query.snapshot.diseases.length, reasoners: query.reasoners.map((r) => r.name), auth: apiKeys.length > 0 },
      'dxgraph serving',
    );
    return {
      url: running.url,
      port: running.port,
      query,
      close: async (closeOpts = {}) => {
        clearInterval(purge);
        await running.close(closeOpts);
        await reports?.close();
        await pool?.close();
        await graph.close();
        await disposeLlm(config);
      },
    };
  } catch (e) {
    await pool?.close();
    await graph.close();
    await disposeLlm(config);
    throw e;
  }
}

/**
 * DXGRAPH_LLM=local: load the GGUF at start, so a wrong path or a missing runtime fails here with
 * one line instead of degrading every request to the evidence reasoner.
 */
export async function loadLocalModel(config: Config, logger: Logger): Promise<void> {
  if (!config.llm.enabled || config.llm.provider !== 'local') return;
  const { chatModelLabel, createChatModel, localModelOf } = await chatModels();
  const local = localModelOf(createChatModel(config, { logger }));
  const t0 = performance.now();
  await local?.load();
  logger.info({ model: chatModelLabel(config.llm), loadMs: Math.round(performance.now() - t0) }, 'local LLM loaded');
}

/** Unload the in-process models (DXGRAPH_LLM=local); without an LLM there is nothing to unload. */
async function disposeLlm(config: Config): Promise<void> {
  if (config.llm.enabled) await (await chatModels()).disposeLocalModels();
}

/**
 * With workers, at most one admitted diagnose per worker: the rest wait in admission's fair
 * per-client queues (admission.ts), not in the pool's arrival-order queue, so another client's
 * request waits for one running diagnose, not for everything a busy client had admitted.
 */
function admitToPool(config: Config, limits: typeof DEFAULT_LIMITS, workers: number): Config {
  const a = limits.admission;
  return { ...config, limits: { ...limits, admission: { ...a, maxActive: Math.min(a.maxActive, workers), maxActivePerClient: Math.min(a.maxActivePerClient, workers) } } };
}

/** DXGRAPH_SESSION_TTL_MS, _SESSION_MAX, _SESSION_MAX_PER_KEY, _SESSION_LIFETIME_MS, _SESSION_MAX_TURNS, _STOP_CONFIDENCE, _FOLLOWUP_RANKER → the consultation. */
function consultationSettings(config: Config) {
  const s = config.sessions ?? DEFAULT_SESSIONS;
  return {
    sessions: { ttlMs: s.ttlMs, maxSessions: s.maxSessions, maxPerOwner: s.maxPerKey, lifetimeMs: s.lifetimeMs },
    options: { confidence: s.stopConfidence, ranker: s.ranker, maxTurns: s.maxTurns },
  };
}
