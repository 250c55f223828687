import assert from 'node:assert/strict';
import type { GraphStore, Row } from '../../src/adapters/neo4j/graph-store.js';
import type { DiagnosticKg } from '../../src/domain/kg.js';
import { loadNeo4j, manifestationBatch, recordBatch, type RecordRow } from '../../kg-build/load-neo4j.js';

const rec = (id: string, diseaseId: string, featureIds: string[]): RecordRow => ({ id, diagnosis: `dx ${diseaseId}`, diseaseId, featureIds });

describe('kg-build load-neo4j: :Record batches', () => {
  it('lists each feature and disease id once and points every row at them by position', () => {
    const rows = [rec('r1', 'dis:a', ['feat:1', 'feat:2']), rec('r2', 'dis:b', ['feat:2', 'feat:3']), rec('r3', 'dis:a', [])];
    const b = recordBatch(rows);
    assert.deepEqual(b.featureIds, ['feat:1', 'feat:2', 'feat:3']);
    assert.deepEqual(b.diseaseIds, ['dis:a', 'dis:b']);
    // Resolving the positions gives back exactly the input rows' ids.
    const back = b.rows.map((r) => ({ id: r.id, diseaseId: b.diseaseIds[r.d as number], featureIds: (r.f as number[]).map((i) => b.featureIds[i]) }));
    assert.deepEqual(back, rows.map(({ id, diseaseId, featureIds }) => ({ id, diseaseId, featureIds })));
    assert.equal(b.rows[1]!.diagnosis, 'dx dis:b');
  });

  it('shapes manifestation batches the same way, keeping each edge\'s figures', () => {
    const rows = [
      { diseaseId: 'dis:a', featureId: 'feat:1', prevalence: 0.5, count: 5, source: 'ehr' as const },
      { diseaseId: 'dis:b', featureId: 'feat:1', prevalence: 0.25, count: 2, source: 'llm' as const },
      { diseaseId: 'dis:a', featureId: 'feat:2', prevalence: 1, count: 10, source: 'ehr' as const },
    ];
    const b = manifestationBatch(rows);
    assert.deepEqual(b.diseaseIds, ['dis:a', 'dis:b']);
    assert.deepEqual(b.featureIds, ['feat:1', 'feat:2']);
    const back = b.rows.map(({ d, f, ...rest }) => ({ diseaseId: b.diseaseIds[d as number], featureId: b.featureIds[f as number], ...rest }));
    assert.deepEqual(back, rows);
  });

  it('an empty batch has empty id lists', () => {
    assert.deepEqual(recordBatch([]), { rows: [], featureIds: [], diseaseIds: [] });
  });

  it('sends merge-records the shaped batches (batchSize rows each) with the build id', async () => {
    const writes: { name: string; params: Row }[] = [];
    const graph = {
      writeAll: async () => {},
      read: async () => [{}],
      write: async (name: string, params: Row) => (writes.push({ name, params }), [{ deleted: 0 }]),
    } as unknown as GraphStore;
    const kg = { categories: [], subcategories: [], diseases: [], features: [], manifestations: [], keyDifferences: [] } as unknown as DiagnosticKg;
    async function* records() {
      for (let i = 0; i < 5; i++) yield rec(`r${i}`, `dis:${i % 2}`, [`feat:${i}`, 'feat:x']);
    }
    const build = { id: 'kg-test', source: 's', embedder: 'e', embeddingDim: 8, params: {}, counts: {}, startedAt: 'now' };
    await loadNeo4j(graph, { kg, degree: new Map(), build, records: records() }, { batchSize: 2 });
    const batches = writes.filter((w) => w.name === 'build/merge-records').map((w) => w.params);
    assert.deepEqual(batches.map((p) => (p.rows as Row[]).length), [2, 2, 1]);
    assert.ok(batches.every((p) => p.buildId === 'kg-test'));
    assert.deepEqual(batches[0]!.featureIds, ['feat:0', 'feat:x', 'feat:1']);
    assert.deepEqual(batches[2]!.diseaseIds, ['dis:0']);
  });

  it('cuts :Record batches at recordEdgesPerTx relationships as well as at batchSize rows', async () => {
    const writes: Row[] = [];
    const graph = {
      writeAll: async () => {},
      read: async () => [{}],
      write: async (name: string, params: Row) => (name === 'build/merge-records' && writes.push(params), [{ deleted: 0 }]),
    } as unknown as GraphStore;
    const kg = { categories: [], subcategories: [], diseases: [], features: [], manifestations: [], keyDifferences: [] } as unknown as DiagnosticKg;
    // 1 DIAGNOSED_AS + 4 HAS_FEATURE = 5 edges per record: 12 edges per transaction -> 3 records (15 >= 12).
    async function* records() {
      for (let i = 0; i < 7; i++) yield rec(`r${i}`, 'dis:a', ['feat:1', 'feat:2', 'feat:3', 'feat:4']);
    }
    const build = { id: 'kg-test', source: 's', embedder: 'e', embeddingDim: 8, params: {}, counts: {}, startedAt: 'now' };
    await loadNeo4j(graph, { kg, degree: new Map(), build, records: records() }, { batchSize: 100, recordEdgesPerTx: 12, recordsInFlight: 2 });
    assert.deepEqual(writes.map((p) => (p.rows as Row[]).length), [3, 3, 1]);
    const ids = writes.flatMap((p) => (p.rows as Row[]).map((r) => r.id));
    assert.deepEqual([...ids].sort(), ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6'], 'every record written once');
  });

  it('a failed :Record batch fails the load before the build is marked complete', async () => {
    const names: string[] = [];
    let n = 0;
    const graph = {
      writeAll: async () => {},
      read: async () => [{}],
      write: async (name: string) => {
        names.push(name);
        if (name === 'build/merge-records' && ++n === 2) throw new Error('Neo4j refused batch 2');
        return [{ deleted: 0 }];
      },
    } as unknown as GraphStore;
    const kg = { categories: [], subcategories: [], diseases: [], features: [], manifestations: [], keyDifferences: [] } as unknown as DiagnosticKg;
    async function* records() {
      for (let i = 0; i < 10; i++) yield rec(`r${i}`, 'dis:a', ['feat:1']);
    }
    const build = { id: 'kg-test', source: 's', embedder: 'e', embeddingDim: 8, params: {}, counts: {}, startedAt: 'now' };
    await assert.rejects(loadNeo4j(graph, { kg, degree: new Map(), build, records: records() }, { batchSize: 2, recordsInFlight: 2 }), /refused batch 2/);
    assert.ok(!names.includes('build/complete-build'));
    assert.ok(names.filter((x) => x === 'build/merge-records').length < 5, 'no new batch after the failure');
  });
});
