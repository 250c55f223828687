import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { rm } from 'node:fs/promises';
import { loadConfig, type Config } from '../../src/config.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';
import { faissThreadsForBuild } from '../../kg-build/build-threads.js';
import { runBuild, type BuildOutcome, type BuildParams } from '../../kg-build/pipeline.js';
import { processCpuMs } from '../../src/util/proc-cpu.js';
import { mb } from './stats.js';

/**
 * Bench phase 1 (own process, so its peak RSS is the build's): wipe the bench database,
 * then the real build pipeline (kg-build/pipeline.ts, exactly what `dxgraph build` runs)
 * over a generated DDXPlus directory. Stage timings are the pipeline's own.
 *
 * With `recordsInGraph`, the load rate is measured on a real volume first: the same build
 * with every record as a `:Record` node (~20 relationships each) into an empty database,
 * before the measured default build (no records in the graph) that the serve phase uses.
 * On a freshly started server (`coldStart`) a build of every other record runs before
 * that: its load is the cold-start figure (JIT not compiled yet).
 */
export interface BuildPhaseInput {
  datasetDir: string;
  dataDir: string;
  neo4jUri: string;
  /** Also measure the load of every record as a `:Record` node (a separate build, before the measured one). */
  recordsInGraph: boolean;
  /** The server is freshly started (first size): measure a cold-start load first. */
  coldStart: boolean;
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
  neo4j: LoadRate & {
    nodes: number;
    counts: Record<string, number>;
    /** The warm-up build's load on the freshly started server (JIT not yet compiled); null without :Record nodes. */
    coldStart: (LoadRate & { records: number }) | null;
    /** The build with every record in the graph: its load, the volume the load rate is judged on. */
    records: (LoadRate & { records: number; loadMs: number; buildMs: number }) | null;
  };
  recordIndex: { kind: string; size: number };
  peakRssMb: number;
}

const REL_KEYS = ['isA', 'manifestations', 'hasKeyDifference', 'contrastsWith', 'about', 'aliasOf', 'hasFeature', 'diagnosedAs'];
const NODE_KEYS = ['categories', 'subcategories', 'diseases', 'aliases', 'features', 'keyDifferences', 'records'];

export interface LoadRate {
  relationships: number;
  relsPerSec: number;
  cpuMs: number | null;
  relsPerCpuSec: number | null;
}

/** Relationships read back after the load, over the `neo4j` stage's wall time and over Neo4j's CPU time in it. */
export function rate(counts: Record<string, number>, wallMs: number, cpuMs: number | null): LoadRate {
  const relationships = REL_KEYS.reduce((s, k) => s + (counts[k] ?? 0), 0);
  return { relationships, relsPerSec: Math.round(relationships / Math.max(0.001, wallMs / 1000)), cpuMs, relsPerCpuSec: cpuMs ? Math.round(relationships / (cpuMs / 1000)) : null };
}

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
    const wipe = async () => {
      while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
    };
    const w0 = performance.now();
    await wipe();
    const wipeMs = Math.round(performance.now() - w0);
    // A dedicated Neo4j starts cold: its first load pays ~30 s of JIT compilation CPU on this
    // 2-core box, more than a 10k-record load itself. That first load is kept as the
    // cold-start figure; the records load after it runs on the server as a build would meet
    // it in service (docs/benchmarks.md, "Neo4j load rate").
    let coldStart: BuildPhaseResult['neo4j']['coldStart'] = null;
    let records: BuildPhaseResult['neo4j']['records'] = null;
    if (input.recordsInGraph) {
      if (input.coldStart) {
        let n = 0;
        const warm = await measuredBuild(graph, config, input, `${input.dataDir}-warm-up`, { recordsInGraph: true, include: () => n++ % 2 === 0 });
        coldStart = { records: warm.out.scan.recordCount, ...rate(warm.out.neo4j.counts, warm.out.timings.neo4j ?? 0, warm.cpuMs) };
        process.stderr.write(`[bench] neo4j cold start (${coldStart.records} records in the graph): ${coldStart.relationships} rels, ${coldStart.relsPerSec} rels/s, ${coldStart.relsPerCpuSec ?? '-'} per Neo4j CPU-s\n`);
        await wipe();
        await rm(`${input.dataDir}-warm-up`, { recursive: true, force: true });
      }
      const r0 = performance.now();
      const full = await measuredBuild(graph, config, input, `${input.dataDir}-records`, { recordsInGraph: true, include: null });
      const loadMs = full.out.timings.neo4j ?? 0;
      records = { records: full.out.scan.recordCount, loadMs, buildMs: Math.round(performance.now() - r0), ...rate(full.out.neo4j.counts, loadMs, full.cpuMs) };
      process.stderr.write(`[bench] neo4j records load (${records.records} records in the graph): ${records.relationships} rels in ${(loadMs / 1000).toFixed(1)} s, ${records.relsPerSec} rels/s, ${records.relsPerCpuSec ?? '-'} per Neo4j CPU-s\n`);
      await wipe();
      await rm(`${input.dataDir}-records`, { recursive: true, force: true });
    }
    const t0 = performance.now();
    const { out, cpuMs } = await measuredBuild(graph, config, input, input.dataDir, { recordsInGraph: false, include: null });
    const totalMs = Math.round(performance.now() - t0);
    const counts = out.neo4j.counts;
    const nodes = NODE_KEYS.reduce((s, k) => s + (counts[k] ?? 0), 0);
    return {
      buildId: out.buildId,
      records: out.scan.recordCount,
      stagesMs: out.timings,
      totalMs,
      wipeMs,
      neo4j: { ...rate(counts, out.timings.neo4j ?? 0, cpuMs), nodes, counts, coldStart, records },
      recordIndex: { kind: out.manifest.recordIndex.kind, size: out.manifest.recordIndex.size },
      peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
    };
  } finally {
    await graph.close();
  }
}

/** One run of the real pipeline, with the Neo4j server's CPU time over it. */
async function measuredBuild(
  graph: GraphStore, config: Config, input: BuildPhaseInput, dataDir: string,
  how: { recordsInGraph: boolean; include: ((r: NormalizedRecord) => boolean) | null },
): Promise<{ out: BuildOutcome; cpuMs: number | null }> {
  const { include } = how;
  const source = new DdxplusSource(input.datasetDir, { strict: false });
  const params = benchParams({ recordsInGraph: how.recordsInGraph, batchSize: input.batchSize });
  // The gate stage's options are set only when asked (BuildParams.gate is optional).
  if (input.gateExamples !== null) Object.assign(params, { gate: { maxExamples: input.gateExamples, calibrationExamples: input.gateExamples } });
  // Neo4j's CPU over the whole build: it works only for the load, which runs side by side
  // with the index and gate stages (kg-build/pipeline.ts), so no stage boundary marks it.
  const cpu0 = processCpuMs(input.neo4jPid);
  const out = await runBuild(
    { source, dataDir, params, ...(include ? { include } : {}) },
    { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null },
  );
  const cpu1 = processCpuMs(input.neo4jPid);
  return { out, cpuMs: cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null };
}
