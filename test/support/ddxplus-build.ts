/**
 * A real build of part of the DDXPlus sample into the test Neo4j and real FAISS indexes,
 * as `test/int/http-server.test.ts` does it, in reusable form for integration tests that
 * then start the real server (`startServer`) on the built data dir.
 */
import { fileURLToPath } from 'node:url';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import type { Config } from '../../src/config.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { runBuild, type BuildParams } from '../../kg-build/pipeline.js';

export const DDXPLUS_SAMPLE = fileURLToPath(new URL('../../datasets/ddxplus', import.meta.url)); // the copy shipped in the repo

/** Statistical hierarchy, no LLM stages, no records in the graph: quick and offline. */
export const SMALL_BUILD_PARAMS: BuildParams = {
  hierarchy: 'statistical',
  sizes: { subcategories: 'auto', categories: 'auto' },
  cluster: {},
  decompose: {},
  keyDifferences: {},
  index: {},
  batchSize: 2000,
  recordsInGraph: false,
  triplesFile: null,
  split: null,
};

/** Records of the sample kept by `keep` (called once per record, in source order), at most `limit`. */
export async function readDdxplusRecords(keep: (r: NormalizedRecord) => boolean, limit = Infinity): Promise<NormalizedRecord[]> {
  const source = await openSource(parseSourceSpec(`ddxplus:${DDXPLUS_SAMPLE}`), { strict: false });
  const out: NormalizedRecord[] = [];
  try {
    for await (const r of source.records()) {
      if (out.length >= limit) break;
      if (keep(r)) out.push(r);
    }
  } finally {
    await source.close();
  }
  return out;
}

/** SMALL_BUILD_PARAMS without the gate's training, for stories that never read the gate (its own: gate.test.ts). */
export const NO_GATE: Pick<BuildParams, 'gate'> = { gate: { maxExamples: 0 } };

/**
 * Builds the records kept by `include` into config.neo4j and config.dataDir (hashed embedder, no LLM);
 * `recordsInGraph` also loads them as :Record nodes (the explore queries show them); `gate: false`
 * skips the gate's training (the served gate is off by default, so the answers do not change): every
 * story that neither turns the gate on nor reads its artifacts builds with it (the gate's own: gate.test.ts).
 */
export async function buildDdxplusKg(config: Config, include: (r: NormalizedRecord) => boolean, opts: { recordsInGraph?: boolean; gate?: boolean } = {}): Promise<void> {
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  const source = await openSource(parseSourceSpec(`ddxplus:${DDXPLUS_SAMPLE}`), { strict: false });
  try {
    await runBuild(
      { source, dataDir: config.dataDir, params: { ...SMALL_BUILD_PARAMS, recordsInGraph: opts.recordsInGraph ?? false, ...(opts.gate === false ? NO_GATE : {}) }, include },
      { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null },
    );
  } finally {
    await source.close();
    await graph.close();
  }
}
