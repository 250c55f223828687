import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { currentPointer } from '../../src/domain/artifacts.js';
import { ServiceUnavailableError } from '../../src/errors.js';
import { memoryDifferencesKg, NO_NEO4J } from '../../src/query/memory-differences.js';
import { memorySnapshot, storedKg } from '../../kg-build/memory-snapshot.js';
import { runBuild, type BuildParams } from '../../kg-build/pipeline.js';
import { EDGE_CASE_KG } from '../support/memory-kg-fixture.js';
import { MemorySource, syntheticRecords } from '../support/memory-source.js';

/**
 * The calibration's fit KGs in memory (issues 48, 49): the build that never loads Neo4j, and the
 * snapshot and differences KG made from its KG as the load and the read-back would shape them
 * (test/int/memory-kg.test.ts compares them with a real Neo4j).
 */
describe('fit KGs in memory: a build kept out of Neo4j', () => {
  const params: BuildParams = {
    hierarchy: 'statistical', sizes: { subcategories: 'auto', categories: 'auto' }, cluster: {}, decompose: {}, keyDifferences: {}, index: {},
    batchSize: 50, recordsInGraph: false, triplesFile: null, split: null, gate: { maxExamples: 0 },
  };
  const records = syntheticRecords([{ name: 'Flu', findings: { E_1: 0.9, E_2: 0.6 } }, { name: 'Cold', findings: { E_1: 0.3, E_4: 0.9 } }, { name: 'Asthma', findings: { E_5: 0.9 } }], { perDisease: 20, seed: 3 });
  const touched: string[] = [];
  // Any call on this graph is recorded and refused: a memory build must make none.
  const refusing = new Proxy({}, { get: (_t, name) => async () => { touched.push(String(name)); throw new Error(`graph.${String(name)} called`); } }) as GraphStore;

  it('writes its artifacts and makes them current without a single call to Neo4j, and hands back the KG', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dx-memory-build-'));
    try {
      const hashed = new HashedEmbedder({ dim: 32 });
      const out = await runBuild({ source: new MemorySource(records), dataDir, params, graphLoad: 'memory' }, { graph: refusing, embedder: { id: hashed.id, embeddings: hashed }, indexFactory: FaissVectorIndex, llm: null });
      assert.deepEqual(touched, []);
      assert.equal(out.neo4j, null);
      assert.equal(out.timings.neo4j, undefined, 'no load was timed');
      assert.equal(readFileSync(currentPointer(dataDir), 'utf8').trim(), out.buildId);
      const snapshot = memorySnapshot(out.kg, out.buildId);
      assert.equal(snapshot.buildId, out.buildId);
      assert.deepEqual(snapshot.diseases.map((d) => d.name).sort(), ['Asthma', 'Cold', 'Flu']);
      assert.ok(snapshot.manifestations.every((m) => m.features.length > 0));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('fit KGs in memory: shaped as the load and the read-back shape them', () => {
  const stored = storedKg(EDGE_CASE_KG);

  it('one node per id with its last row\'s properties; no subcategory without its category, no disease without its subcategory', () => {
    assert.deepEqual(stored.subcategories.map((s) => [s.id, s.name]), [['sub:1', 'Lower airways (renamed)'], ['sub:2', 'Rashes']]);
    assert.deepEqual(stored.diseases.map((d) => d.id), ['dis:a', 'dis:b', 'dis:c', 'dis:e']);
    const cough = stored.features.find((f) => f.id === 'feat:cough')!;
    assert.equal(cough.text, 'productive cough');
    assert.equal(stored.features.filter((f) => f.id === 'feat:cough').length, 1);
  });

  it('features by id, every property present (null when unset), an augmented feature without notes provenance', () => {
    assert.deepEqual(stored.features.map((f) => f.id), ['feat:aug', 'feat:cough', 'feat:emergent', 'feat:wheeze']);
    for (const f of stored.features) assert.equal(Object.keys(f).length, 14, f.id);
    const aug = stored.features.find((f) => f.id === 'feat:aug')!;
    assert.deepEqual([aug.forms, aug.vocabulary, aug.fromNotes, aug.answerType], [null, null, null, null]);
    assert.deepEqual(stored.features.find((f) => f.id === 'feat:emergent')!.forms, []);
    const b = stored.diseases.find((d) => d.id === 'dis:b')!;
    assert.deepEqual([b.declaredEvidence, b.notedRecords, b.aliases], [null, null, []]);
  });

  it('edges only between nodes the load wrote, the last of a repeated edge kept', () => {
    assert.equal(stored.manifestations.some((m) => m.featureId === 'feat:missing'), false);
    assert.equal(stored.manifestations.find((m) => m.diseaseId === 'dis:b' && m.featureId === 'feat:wheeze')!.prevalence, 0.67);
    assert.equal(stored.manifestations.filter((m) => m.diseaseId === 'dis:b' && m.featureId === 'feat:wheeze').length, 1);
    assert.deepEqual(stored.notesMentions!.map((m) => m.featureId), ['feat:emergent', 'feat:wheeze']);
  });

  it('every tier and edge list in id order, as the snapshot queries return them: the rows\' order in the KG changes no index', () => {
    for (const tier of ['categories', 'subcategories', 'diseases', 'features'] as const) {
      const ids = stored[tier].map((x) => x.id);
      assert.deepEqual(ids, [...ids].sort(), tier);
    }
    const ends = stored.manifestations.map((m) => `${m.diseaseId} ${m.featureId}`);
    assert.deepEqual(ends, [...ends].sort());
    // Rows in descending key order; a stable sort keeps a repeated id's rows in order, so the same row stays last.
    const desc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
    const byId = <T extends { id: string }>(xs: readonly T[]) => [...xs].sort((x, y) => desc(x.id, y.id));
    const byEnds = <T extends { diseaseId: string; featureId: string }>(xs: readonly T[]) => [...xs].sort((x, y) => desc(`${x.diseaseId} ${x.featureId}`, `${y.diseaseId} ${y.featureId}`));
    const kg = EDGE_CASE_KG;
    const shuffled = { ...kg, categories: byId(kg.categories), subcategories: byId(kg.subcategories), diseases: byId(kg.diseases), features: byId(kg.features), manifestations: byEnds(kg.manifestations), notesMentions: byEnds(kg.notesMentions ?? []) };
    assert.notDeepEqual(shuffled.diseases.map((d) => d.id), kg.diseases.map((d) => d.id));
    assert.deepStrictEqual(memorySnapshot(shuffled, 'kg-x'), memorySnapshot(EDGE_CASE_KG, 'kg-x'));
  });

  it('the differences KG: diseases by name, key differences by id, one about a missing feature without its label', async () => {
    const read = memoryDifferencesKg(EDGE_CASE_KG);
    const { triples } = await read({ subcategoryId: 'sub:1', perDisease: 30 });
    assert.deepEqual([...new Set(triples.map((t) => t.subject))], ['Asthma', 'Bronchitis']);
    const kds = triples.filter((t) => t.relation === 'HAS_KEY_DIFFERENCE');
    assert.deepEqual(kds.map((t) => t.subjectId), ['dis:b', 'dis:b', 'dis:a', 'dis:a']);
    assert.ok(kds[2]!.object.startsWith('wheezing less common') && kds[3]!.object.startsWith('cough more common'), kds.map((t) => t.object).join(' | '));
    assert.equal(kds.find((t) => t.object.startsWith('about a feature'))!.weight, null);
    assert.deepEqual(await read({ subcategoryId: 'sub:none', perDisease: 30 }), { triples: [] });
    assert.equal(read({ subcategoryId: 'sub:1', perDisease: 30 }), read({ subcategoryId: 'sub:1', perDisease: 30 }), 'ranked once per subcategory and limit');
  });

  it('a query service on a KG in memory never reads Neo4j: a read that tried says so', async () => {
    await assert.rejects(NO_NEO4J.read('query/differences-kg'), (e: unknown) => e instanceof ServiceUnavailableError && /in memory/.test(e.message));
  });
});
