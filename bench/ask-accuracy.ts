/**
 * `dxgraph ask` accuracy on a held-out patient-level split (issue 5 acceptance):
 *   1. (with --build) build the KG from the TRAIN part of the source into Neo4j + DATA_DIR
 *      (kg-build/pipeline.ts, exactly what `dxgraph build --test-fraction X --seed N` does);
 *   2. open the query service (KG snapshot from Neo4j, FAISS indexes from DATA_DIR);
 *   3. diagnose every TEST record's text rendering and compare the first disease.
 *
 * Usage: NEO4J_URI=bolt://127.0.0.1:7687 DXGRAPH_DATA_DIR=/tmp/ask-bench \
 *   npx tsx bench/ask-accuracy.ts [--build] [--source ddxplus:datasets/ddxplus] [--seed 1] [--test-fraction 0.4] [--limit N] [--out FILE]
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createEmbedder } from '../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { loadConfig } from '../src/config.js';
import type { NormalizedRecord } from '../src/domain/record.js';
import { evaluateAsk } from '../src/query/evaluate-ask.js';
import { openQueryService } from '../src/query/query-service.js';
import { EvidenceReasoner } from '../src/reasoners/evidence-reasoner.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';
import { splitFilter } from '../src/sources/split.js';
import { runBuild } from '../kg-build/pipeline.js';

const { values: a } = parseArgs({
  options: {
    build: { type: 'boolean', default: false },
    source: { type: 'string', default: 'ddxplus:datasets/ddxplus' },
    seed: { type: 'string', default: '1' },
    'test-fraction': { type: 'string', default: '0.4' },
    limit: { type: 'string' },
    out: { type: 'string' },
  },
});
const split = { seed: Number(a.seed), testFraction: Number(a['test-fraction']) };
const config = loadConfig();
const embedder = createEmbedder(config);
const graph = new GraphStore(config.neo4j);
await graph.connect();

async function* part(which: 'train' | 'test'): AsyncGenerator<NormalizedRecord> {
  const source = await openSource(parseSourceSpec(a.source!), { strict: false });
  const keep = splitFilter({ ...split, part: which });
  try {
    for await (const r of source.records()) if (keep(r)) yield r;
  } finally {
    await source.close();
  }
}

try {
  if (a.build) {
    const source = await openSource(parseSourceSpec(a.source!), { strict: false });
    const t0 = performance.now();
    try {
      await runBuild(
        {
          source, dataDir: config.dataDir, include: splitFilter({ ...split, part: 'train' }),
          params: { hierarchy: 'auto', sizes: { subcategories: 'auto', categories: 'auto' }, cluster: {}, decompose: {}, keyDifferences: {}, index: {}, batchSize: 5000, recordsInGraph: false, triplesFile: null, split },
        },
        { graph, embedder, indexFactory: FaissVectorIndex, llm: null },
      );
    } finally {
      await source.close();
    }
    process.stderr.write(`build (train part): ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  const service = await openQueryService({ graph, dataDir: config.dataDir, embedder, reasoners: [new EvidenceReasoner()] });
  const t0 = performance.now();
  const result = await evaluateAsk(service, part('test'), {
    ...(a.limit ? { limit: Number(a.limit) } : {}),
    onProgress: (n) => n % 100 === 0 && process.stderr.write(`  ${n} test records\n`),
  });
  const report = { buildId: service.snapshot.buildId, split, source: a.source, seconds: (performance.now() - t0) / 1000, ...result };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (a.out) await writeFile(a.out, JSON.stringify(report, null, 2));
} finally {
  await graph.close();
}
