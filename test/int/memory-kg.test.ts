import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { buildFlagsOf, paramsFromFlags } from '../../src/cli/build-command.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { DiagnosticKg } from '../../src/domain/kg.js';
import { createLogger } from '../../src/logger.js';
import { differencesKg } from '../../src/query/differences-kg.js';
import { loadSnapshot, readManifest } from '../../src/query/load-snapshot.js';
import { memoryDifferencesKg } from '../../src/query/memory-differences.js';
import { startServer, type DxServer } from '../../src/server.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { hashUnit } from '../../src/sources/split.js';
import { memorySnapshot } from '../../kg-build/memory-snapshot.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import { loadNeo4j, prepareLoad } from '../../kg-build/load-neo4j.js';
import { runBuild, type BuildOutcome } from '../../kg-build/pipeline.js';
import { clearDatabase, testGraphStore } from '../support/neo4j.js';
import { canonicalSnapshot, EDGE_CASE_KG } from '../support/memory-kg-fixture.js';

/**
 * The calibration's fit KGs never touch Neo4j (src/calibration/cross-fit.ts): they are answered
 * from memory (kg-build/memory-snapshot.ts, src/query/memory-differences.ts). Here, against the
 * real Neo4j: what memory gives is exactly what the load and the read-back give, for a real build
 * (coded FHIR records with notes) and for the load's edge cases; and a server on the same Neo4j
 * keeps serving its build all through another build's calibration, until that build's served load.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const FHIR = 'fhir:datasets/fhir-synthetic/ndjson';
const flags = (...more: string[]) => buildFlagsOf(['--source', FHIR, '--gate-sample', '0', ...more]);

/** Every subcategory's differences KG, from memory and from Neo4j, at two per-disease limits. */
async function assertSameDifferences(store: GraphStore, kg: DiagnosticKg, subcategoryIds: string[]): Promise<{ manifestations: number; keyDifferences: number }> {
  const memory = memoryDifferencesKg(kg);
  let manifestations = 0;
  let keyDifferences = 0;
  for (const subcategoryId of subcategoryIds) {
    for (const perDisease of [30, 2]) {
      const input = { subcategoryId, perDisease };
      const fromNeo4j = await differencesKg(store, input);
      assert.deepStrictEqual(await memory(input), fromNeo4j, `differences KG of ${subcategoryId} at ${perDisease} per disease`);
      manifestations += fromNeo4j.triples.filter((t) => t.relation === 'HAS_MANIFESTATION').length;
      keyDifferences += fromNeo4j.triples.filter((t) => t.relation === 'HAS_KEY_DIFFERENCE').length;
    }
  }
  return { manifestations, keyDifferences };
}

describe('fit KGs in memory: the same KG as Neo4j gives back, and a served graph that changes once (issues 48, 49)', function () {
  this.timeout(300_000);
  let store: GraphStore;
  let config: Config;
  let a: { outcome: BuildOutcome; dataDir: string } | null = null;
  const dirs: string[] = [];
  const tmp = (name: string) => {
    const d = mkdtempSync(join(tmpdir(), `dx-memory-kg-${name}-`));
    dirs.push(d);
    return d;
  };

  before(async () => {
    store = await testGraphStore();
    await clearDatabase({ store });
    config = loadConfig({ ...process.env, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LOG_LEVEL: 'silent' });
  });
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a real build with notes: the snapshot and every differences KG from memory equal what Neo4j reads back', async () => {
    const dataDir = tmp('a');
    const source = await openSource(parseSourceSpec(FHIR), { strict: false });
    try {
      // Seven patients in ten: a KG of its own (build A of the next story).
      const outcome = await runBuild(
        { source, dataDir, params: paramsFromFlags(flags()), include: (r) => hashUnit(11, r.patient ?? r.id) < 0.7 },
        { graph: store, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null, noteReader: async () => (await loadNoteReader()).deps },
      );
      a = { outcome, dataDir };
    } finally {
      await source.close();
    }
    const { kg, buildId } = a.outcome;
    const fromNeo4j = await loadSnapshot(store);
    const fromMemory = memorySnapshot(kg, buildId);
    assert.equal(fromNeo4j.buildId, buildId);
    assert.deepStrictEqual(canonicalSnapshot(fromMemory), canonicalSnapshot(fromNeo4j));
    // Ordered by the query (ORDER BY f.id): equal as they come, not only once sorted.
    assert.deepStrictEqual(fromMemory.features, fromNeo4j.features);
    // The build exercised what the load reshapes: notes' vocabularies and forms, notes mentions, diseases of mixed records.
    assert.ok(fromNeo4j.features.some((f) => f.vocabulary && f.forms && f.forms.length > 0), 'features read from notes, with their forms');
    assert.ok(fromNeo4j.notesMentions.some((m) => m !== null && m.features.length > 0), 'NOTES_MENTION edges');
    const shown = await assertSameDifferences(store, kg, fromNeo4j.subcategories.map((s) => s.id));
    assert.ok(shown.manifestations > 0 && shown.keyDifferences > 0, JSON.stringify(shown));
  });

  it('a server serving build A keeps serving A all through a calibrating build of B, until B\'s served load', async () => {
    assert.ok(a, 'build A of the story before');
    const server: DxServer = await startServer({ config: { ...config, dataDir: a.dataDir }, logger: createLogger({ level: 'silent' }), port: 0 });
    const summary = async () => (await (await fetch(`${server.url}/v1/kg/summary`)).json()) as { build: { id: string } | null; counts: Record<string, number> };
    const seen: { phase: 'fit' | 'served'; id: string | null; counts: Record<string, number> }[] = [];
    let phase: 'fit' | 'served' = 'fit';
    let building = true;
    try {
      const served = await summary();
      assert.equal(served.build?.id, a.outcome.buildId);
      // The server's graph endpoints read Neo4j as it is now: sampled until B's build returns.
      const poll = (async () => {
        while (building) {
          const at = phase; // the phase the sample was asked in
          const s = await summary();
          seen.push({ phase: at, id: s.build?.id ?? null, counts: s.counts });
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const bDir = tmp('b');
      // B is built by the CLI in a process of its own, as a hospital rebuilds beside its server; its progress lines mark the phase.
      const lines: string[] = [];
      try {
        const code = await new Promise<number | null>((resolveExit, reject) => {
          const child = spawn(process.execPath, [join(ROOT, 'bin/dxgraph.js'), 'build', '--source', FHIR, '--gate-sample', '0', '--calibration-share', '0.5'], {
            cwd: ROOT, env: { ...process.env, DXGRAPH_DATA_DIR: bDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'ignore', 'pipe'],
          });
          createInterface({ input: child.stderr! }).on('line', (l) => {
            lines.push(l);
            if (/^calibration: building the served KG/.test(l)) phase = 'served';
          });
          child.on('error', reject).on('exit', resolveExit);
        });
        assert.equal(code, 0, lines.slice(-20).join('\n'));
      } finally {
        building = false;
        await poll;
      }
      assert.ok(lines.some((l) => /^calibration: building a KG of \d+ patients/.test(l)), 'B calibrated itself on a fit KG');
      const b = await readManifest(bDir);
      assert.ok(b.calibration, 'B is served calibrated');
      assert.notEqual(b.buildId, a.outcome.buildId);
      const during = seen.filter((s) => s.phase === 'fit');
      assert.ok(during.length >= 3, `${during.length} samples while B's fit KG was built and answered`);
      for (const s of during) {
        assert.equal(s.id, a.outcome.buildId, 'the graph the server reads is still A while B calibrates');
        assert.deepEqual(s.counts, served.counts);
      }
      assert.equal((await summary()).build?.id, b.buildId, 'B\'s served load replaced A, once');
      assert.ok(seen.every((s) => s.id === a!.outcome.buildId || s.id === b.buildId), `only A and B were ever seen: ${[...new Set(seen.map((s) => s.id))].join(', ')}`);
    } finally {
      building = false;
      // lingerMs 0: a teardown; no client sends another request on an idle kept-alive socket, so no 1 s linger.
      await server.close({ drainMs: 1000, lingerMs: 0 });
    }
  });

  it('the load\'s edge cases (duplicate ids, dangling edges, augmented features, null and empty properties) read back as memory has them', async () => {
    await clearDatabase({ store });
    const kg = EDGE_CASE_KG;
    await prepareLoad(store);
    await loadNeo4j(store, {
      kg, degree: new Map(),
      build: { id: 'kg-edge-cases', source: 'fixture', embedder: 'hashed', embeddingDim: 4, params: {}, counts: {}, startedAt: new Date().toISOString() },
    }, { batchSize: 2 });
    const fromNeo4j = await loadSnapshot(store);
    assert.deepStrictEqual(canonicalSnapshot(memorySnapshot(kg, 'kg-edge-cases')), canonicalSnapshot(fromNeo4j));
    assert.deepStrictEqual(memorySnapshot(kg, 'kg-edge-cases').features, fromNeo4j.features);
    // What the fixture is for: these were dropped or reshaped by the load, and memory does the same.
    assert.deepEqual(fromNeo4j.diseases.map((d) => d.id).sort(), ['dis:a', 'dis:b', 'dis:c', 'dis:e']);
    assert.equal(fromNeo4j.features.find((f) => f.id === 'feat:aug')?.forms, null, 'an augmented feature keeps no forms');
    const shown = await assertSameDifferences(store, kg, [...kg.subcategories.map((s) => s.id), 'sub:none']);
    assert.ok(shown.manifestations > 0 && shown.keyDifferences > 0, JSON.stringify(shown));
  });
});
