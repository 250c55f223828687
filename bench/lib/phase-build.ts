import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { loadConfig } from '../../src/config.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';
import { faissThreadsForBuild } from '../../kg-build/build-threads.js';
import { runBuild, type BuildParams } from '../../kg-build/pipeline.js';
import { processCpuMs } from './neo4j.js';
import { mb } from './stats.js';

/**
 * Bench phase 1 (own process, so its peak RSS is the build's): wipe the bench database,
 * then the real build pipeline (kg-build/pipeline.ts, exactly what `dxgraph build` runs)
 * over a generated DDXPlus directory. Stage timings are the pipeline's own.
 */
export interface BuildPhaseInput {
  datasetDir: string;
  dataDir: string;
  neo4jUri: string;
  recordsInGraph: boolean;
  batchSize: number;
  /** Local Neo4j pid: the load rate is also given per second of Neo4j CPU (a loaded machine starves it). */
  neo4jPid: number | null;
  /** 0 = no gate training stage (quick mode): it costs the same at any size. */
  gateExamples: number | null;
}

export interface BuildPhaseResult {
  buildId: string;
  records: number;
  stagesMs: Record<string, number>;
  totalMs: number;
  wipeMs: number;
  neo4j: { relationships: number; nodes: number; relsPerSec: number; cpuMs: number | null; relsPerCpuSec: number | null; counts: Record<string, number> };
  recordIndex: { kind: string; size: number };
  peakRssMb: number;
}

const REL_KEYS = ['isA', 'manifestations', 'hasKeyDifference', 'contrastsWith', 'about', 'aliasOf', 'hasFeature', 'diagnosedAs'];
const NODE_KEYS = ['categories', 'subcategories', 'diseases', 'aliases', 'features', 'keyDifferences', 'records'];

export function benchParams(o: { recordsInGraph: boolean; batchSize: number }): BuildParams {
  return {
    hierarchy: 'statistical', sizes: { subcategories: 'auto', categories: 'auto' }, cluster: {}, decompose: {}, keyDifferences: {}, index: {},
    batchSize: o.batchSize, recordsInGraph: o.recordsInGraph, triplesFile: null, split: null,
  };
}

export async function buildPhase(input: BuildPhaseInput): Promise<BuildPhaseResult> {
  faissThreadsForBuild(); // as `dxgraph build` does (src/cli/build-command.ts), before faiss-node loads
  const config = loadConfig({ ...process.env, NEO4J_URI: input.neo4jUri, NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '', DXGRAPH_DATA_DIR: input.dataDir, DXGRAPH_LLM: 'none' });
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  try {
    const w0 = performance.now();
    while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
    const wipeMs = Math.round(performance.now() - w0);
    const source = new DdxplusSource(input.datasetDir, { strict: false });
    const params = benchParams(input);
    // The gate stage's options are set only when asked (BuildParams.gate is optional).
    if (input.gateExamples !== null) Object.assign(params, { gate: { maxExamples: input.gateExamples, calibrationExamples: input.gateExamples } });
    // Neo4j CPU over its stage only: the pipeline's progress hooks mark where it starts and stops.
    let cpu0: number | null = null;
    let cpu1: number | null = null;
    let inNeo4j = false;
    const progress = {
      start: (label: string) => {
        inNeo4j = label === 'neo4j';
        if (inNeo4j) cpu0 = processCpuMs(input.neo4jPid);
      },
      update: () => {},
      stop: () => {
        if (inNeo4j) cpu1 = processCpuMs(input.neo4jPid);
        inNeo4j = false;
      },
    };
    const t0 = performance.now();
    const out = await runBuild(
      { source, dataDir: input.dataDir, params },
      { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null, progress },
    );
    const totalMs = Math.round(performance.now() - t0);
    const cpuMs = cpu0 !== null && cpu1 !== null ? (cpu1 as number) - cpu0 : null;
    const counts = out.neo4j.counts;
    const relationships = REL_KEYS.reduce((s, k) => s + (counts[k] ?? 0), 0);
    const nodes = NODE_KEYS.reduce((s, k) => s + (counts[k] ?? 0), 0);
    return {
      buildId: out.buildId,
      records: out.scan.recordCount,
      stagesMs: out.timings,
      totalMs,
      wipeMs,
      neo4j: { relationships, nodes, relsPerSec: Math.round(relationships / Math.max(0.001, (out.timings.neo4j ?? 0) / 1000)), cpuMs, relsPerCpuSec: cpuMs ? Math.round(relationships / (cpuMs / 1000)) : null, counts },
      recordIndex: { kind: out.manifest.recordIndex.kind, size: out.manifest.recordIndex.size },
      peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
    };
  } finally {
    await graph.close();
  }
}
