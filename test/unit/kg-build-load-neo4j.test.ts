import assert from 'node:assert/strict';
import type { GraphStore, Row } from '../../src/adapters/neo4j/graph-store.js';
import type { DiagnosticKg } from '../../src/domain/kg.js';
import { loadNeo4j, recordBatch, type RecordRow } from '../../kg-build/load-neo4j.js';

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
});
