import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { buildFlagsOf, paramsFromFlags } from '../../src/cli/build-command.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { DiagnosticKg } from '../../src/domain/kg.js';
import { differencesKg } from '../../src/query/differences-kg.js';
import { loadSnapshot } from '../../src/query/load-snapshot.js';
import { memoryDifferencesKg } from '../../src/query/memory-differences.js';
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
 * (coded FHIR records with notes) and for the load's edge cases. That a server on the same Neo4j
 * keeps serving its build all through another build's calibration is calibration-http.test.ts's
 * story (it shares that file's calibrating CLI build).
 */
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

describe('fit KGs in memory: the same KG as Neo4j gives back (issues 48, 49)', function () {
  this.timeout(300_000);
  let store: GraphStore;
  let config: Config;
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
    let outcome: BuildOutcome;
    try {
      // Seven patients in ten: a KG of its own.
      outcome = await runBuild(
        { source, dataDir, params: paramsFromFlags(flags()), include: (r) => hashUnit(11, r.patient ?? r.id) < 0.7 },
        { graph: store, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null, noteReader: async () => (await loadNoteReader()).deps },
      );
    } finally {
      await source.close();
    }
    const { kg, buildId } = outcome;
    const fromNeo4j = await loadSnapshot(store);
    const fromMemory = memorySnapshot(kg, buildId);
    assert.equal(fromNeo4j.buildId, buildId);
    assert.deepStrictEqual(canonicalSnapshot(fromMemory), canonicalSnapshot(fromNeo4j));
    // Every tier and edge list in id order (ORDER BY in each snapshot query): equal as they come, not
    // only once sorted, so an answer's ties break alike whichever plan Neo4j picked.
    assert.deepStrictEqual(fromMemory, fromNeo4j);
    // The build exercised what the load reshapes: notes' vocabularies and forms, notes mentions, diseases of mixed records.
    assert.ok(fromNeo4j.features.some((f) => f.vocabulary && f.forms && f.forms.length > 0), 'features read from notes, with their forms');
    assert.ok(fromNeo4j.notesMentions.some((m) => m !== null && m.features.length > 0), 'NOTES_MENTION edges');
    const shown = await assertSameDifferences(store, kg, fromNeo4j.subcategories.map((s) => s.id));
    assert.ok(shown.manifestations > 0 && shown.keyDifferences > 0, JSON.stringify(shown));
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
