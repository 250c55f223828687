/**
 * Opens what the harness evaluates, the way `dxgraph serve` opens it (src/server.ts):
 * the configured embedder and reasoners (`createReasoners`), the KG snapshot and build
 * artifacts (`openQueryService`), and the consultation use case over that snapshot
 * (`createConsultation`). Nothing is re-implemented here, so eval measures the server.
 * Those modules are imported here, when the evaluation opens its target, not when the
 * command loads: an evaluation refused before (eval-input.ts) never loads them (issue 49).
 */
import type { Config } from '../config.js';
import { ArtifactError } from '../errors.js';
import type { AnswerTypeHints } from '../followups/question-model.js';
import type { Logger } from '../logger.js';
import type { QueryService } from '../query/query-service.js';
import type { SessionPort } from './session-dialogue.js';

export interface OpenedEval {
  query: QueryService;
  sessions: SessionPort;
  close(): Promise<void>;
}

/** `buildId`: the build the test records were checked against (eval-input.ts); a different current build is refused. */
export async function openEvalTarget(opts: { config: Config; logger: Logger; hints: AnswerTypeHints | null; confidence: number; buildId?: string }): Promise<OpenedEval> {
  const [{ GraphStore }, { createEmbedder }, { openQueryService }, { createReasoners }, { createConsultation }] = await Promise.all([
    import('../adapters/neo4j/graph-store.js'), import('../adapters/embeddings/index.js'), import('../query/query-service.js'), import('../query/served-query.js'), import('../sessions/create.js'),
  ]);
  const graph = new GraphStore(opts.config.neo4j);
  try {
    await graph.connect();
    const embedder = createEmbedder(opts.config);
    const reasoners = await createReasoners(opts.config, opts.logger);
    // The gate as the server runs it (DXGRAPH_GATE), so the eval's gate figures are the served ones.
    const query = await openQueryService({ graph, dataDir: opts.config.dataDir, embedder, reasoners, ...(opts.config.gate ? { gate: opts.config.gate } : {}), ...(opts.config.query?.recordRetrieval ? { recordRetrieval: opts.config.query.recordRetrieval } : {}) });
    const current = query.artifacts.manifest.buildId;
    if (opts.buildId !== undefined && current !== opts.buildId) {
      throw new ArtifactError(opts.config.dataDir, `the current build changed from ${opts.buildId} to ${current} while the test records were checked against it: run the evaluation again`);
    }
    // One dialogue at a time: a small session store suffices (old sessions fall out of the LRU).
    const sessions = createConsultation({
      snapshot: query.snapshot, query, calibration: query.artifacts.calibration, ...(opts.hints ? { hints: opts.hints } : {}), options: { confidence: opts.confidence }, sessions: { maxSessions: 16 },
    });
    return { query, sessions, close: () => graph.close() };
  } catch (e) {
    await graph.close();
    throw e;
  }
}
