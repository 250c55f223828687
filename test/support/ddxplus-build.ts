import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { hashUnit } from '../../src/sources/split.js';
import { runBuild, type BuildOutcome } from '../../kg-build/pipeline.js';

/**
 * A small REAL build for integration tests: a stable hash-selected share of the DDXPlus
 * sample built into the test Neo4j (NEO4J_URI from test/int/hooks.ts) and real FAISS
 * indexes in a fresh data dir. The build replaces the graph (older buildIds are deleted).
 */
export const DDXPLUS_DIR = '/work/shared/datasets/ddxplus';

export interface SmallBuild {
  dataDir: string;
  /** Config for `startServer` over this build (offline: no LLM, hashed embedder). */
  config: Config;
  outcome: BuildOutcome;
}

export async function buildDdxplusSubset(opts: { share: number; recordsInGraph: boolean; seed?: number; prefix?: string }): Promise<SmallBuild> {
  const dataDir = mkdtempSync(join(tmpdir(), opts.prefix ?? 'dx-small-build-'));
  const config = loadConfig({ ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' });
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  const source = await openSource(parseSourceSpec(`ddxplus:${DDXPLUS_DIR}`), { strict: false });
  try {
    const outcome = await runBuild(
      {
        source,
        dataDir,
        include: (r) => hashUnit(opts.seed ?? 7, r.id) < opts.share,
        params: {
          hierarchy: 'statistical', sizes: { subcategories: 'auto', categories: 'auto' }, cluster: {}, decompose: {}, keyDifferences: {}, index: {},
          batchSize: 2000, recordsInGraph: opts.recordsInGraph, triplesFile: null, split: null,
        },
      },
      { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null },
    );
    return { dataDir, config, outcome };
  } finally {
    await source.close();
    await graph.close();
  }
}
