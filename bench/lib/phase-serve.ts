import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { textInput } from '../../src/query/query-service.js';
import { startServer } from '../../src/server.js';
import { faissBench, parseIndexSpec, type FaissBenchResult, type IndexSpec } from './faiss-bench.js';
import { ddxplusTexts, embeddedChunks, queryPatients } from './record-texts.js';
import { sideBySide, type SideBySideResult } from './side-by-side.js';
import { mb, summarize } from './stats.js';

/**
 * Bench phase 2 (own process): the real server (src/server.ts, offline: no LLM) on
 * 127.0.0.1:0 over the build just made; the parent drives the HTTP load and says when it
 * is done (`waitLoaded`). Then, in process: diagnose() without HTTP, the FAISS figures on
 * the same record texts, and the side-by-side with the reference path.
 */
export interface ServePhaseInput {
  datasetDir: string;
  dataDir: string;
  neo4jUri: string;
  queriesDir: string;
  queryCount: number;
  referenceQueries: number;
  records: number;
  /** FAISS indexes to measure on the record vectors (flat, ivf, hnsw32, ...); empty = none. */
  faissKinds: string[];
}

export interface ServePhaseResult {
  startupMs: number;
  serveRssMb: number;
  inProcessDiagnoseMs: ReturnType<typeof summarize>;
  faiss: FaissBenchResult | null;
  sideBySide: SideBySideResult | null;
  peakRssMb: number;
}

/** Index kinds as the FAISS-only phase takes them (faiss-bench.ts parseIndexSpec: 'ivf[-npN]', 'hnswM[-efcN][-efsN]'). */
export function specsFor(n: number, kinds: string[]): IndexSpec[] {
  return kinds.map((k) => parseIndexSpec(k, n));
}

export async function servePhase(input: ServePhaseInput, hooks: { ready(baseUrl: string, texts: string[]): void; waitLoaded(): Promise<void> }): Promise<ServePhaseResult> {
  const env = { ...process.env, NEO4J_URI: input.neo4jUri, NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '', DXGRAPH_DATA_DIR: input.dataDir, DXGRAPH_LLM: 'none', DXGRAPH_API_KEYS: '', DXGRAPH_API_KEY_FILE: '', DXGRAPH_RATE_LIMIT_MAX: '0' };
  const config = loadConfig(env);
  const queries = await queryPatients({ dir: input.queriesDir, count: input.queryCount, seed: 424242 });
  const texts = queries.map((q) => q.text);
  const t0 = performance.now();
  const server = await startServer({ config, logger: createLogger({ level: 'error' }), host: '127.0.0.1', port: 0 });
  const startupMs = Math.round(performance.now() - t0);
  let inProcess: number[] = [];
  try {
    hooks.ready(server.url, texts);
    await hooks.waitLoaded();
    const serveRssMb = mb(process.resourceUsage().maxRSS * 1024);
    for (const text of texts) {
      const t = performance.now();
      await server.query.diagnose(textInput(text, { reasoner: 'evidence' }));
      inProcess.push(performance.now() - t);
    }
    const embedder = createEmbedder(config);
    const dim = server.query.artifacts.manifest.embeddingDim;
    const all = input.referenceQueries > 0 ? new Float32Array(input.records * dim) : null;
    const ids: string[] = [];
    let filled = 0;
    async function* tee() {
      for await (const c of embeddedChunks(ddxplusTexts(input.datasetDir), embedder.embeddings, { chunk: 65_536, dim })) {
        if (all && filled + c.vectors.length <= all.length) all.set(c.vectors, filled);
        filled += c.vectors.length;
        ids.push(...c.ids);
        yield c;
      }
    }
    const qv = (await embedder.embeddings.embedDocuments(texts)).map((v) => Float32Array.from(v));
    const faiss = input.faissKinds.length > 0 ? await faissBench({ dim, chunks: tee(), queries: qv, specs: specsFor(input.records, input.faissKinds), k: 10, widerK: [32, 64] }) : null;
    if (!faiss && all) for await (const c of tee()) void c;
    const side = all
      ? await sideBySide({ service: server.query, embedder, texts, recordIds: ids, recordVectors: all.subarray(0, filled), dim, referenceQueries: input.referenceQueries })
      : null;
    return { startupMs, serveRssMb, inProcessDiagnoseMs: summarize(inProcess), faiss, sideBySide: side, peakRssMb: mb(process.resourceUsage().maxRSS * 1024) };
  } finally {
    inProcess = [];
    await server.close({ drainMs: 1000 });
  }
}
