import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { cachedDifferencesKg, uncachedDifferencesKg } from '../../src/query/differences-kg-cache.js';

/** A fake GraphStore.read that counts reads and can be made to fail. */
function fakeGraph() {
  const reads: string[] = [];
  let failing = false;
  return {
    reads,
    fail(on: boolean) {
      failing = on;
    },
    async read(name: string, params: Record<string, unknown> = {}) {
      reads.push(`${name}:${String(params.subcategoryId)}`);
      await new Promise((r) => setTimeout(r, 5));
      if (failing) throw new Error('Neo4j is unreachable');
      return [{ disease: `D of ${String(params.subcategoryId)}`, diseaseId: 'd1', manifestations: [{ relation: 'HAS_MANIFESTATION', object: 'fever', objectId: 'f1', weight: 0.5 }], differences: [] }];
    },
  };
}

describe('differences KG cache (one Neo4j read per subcategory per snapshot)', () => {
  it('reads a subcategory once, then serves the same triples from memory', async () => {
    const g = fakeGraph();
    const read = cachedDifferencesKg(g, { maxEntries: 10 });
    const a = await read({ subcategoryId: 's1', perDisease: 30 });
    const b = await read({ subcategoryId: 's1', perDisease: 30 });
    assert.deepEqual(b, a);
    assert.equal(a.triples[0]!.subject, 'D of s1');
    assert.deepEqual(g.reads, ['query/differences-kg:s1']);
  });

  it('shares one read between concurrent first queries, and keys on the per-disease limit too', async () => {
    const g = fakeGraph();
    const read = cachedDifferencesKg(g, { maxEntries: 10 });
    await Promise.all([read({ subcategoryId: 's1', perDisease: 30 }), read({ subcategoryId: 's1', perDisease: 30 }), read({ subcategoryId: 's1', perDisease: 5 })]);
    assert.equal(g.reads.length, 2);
  });

  it('never caches a failed read: the next query asks Neo4j again and recovers', async () => {
    const g = fakeGraph();
    const read = cachedDifferencesKg(g, { maxEntries: 10 });
    g.fail(true);
    await assert.rejects(read({ subcategoryId: 's2', perDisease: 30 }), /unreachable/);
    g.fail(false);
    assert.equal((await read({ subcategoryId: 's2', perDisease: 30 })).triples.length, 1);
    assert.equal(g.reads.length, 2);
  });

  it('holds at most maxEntries subcategories (the oldest is read again)', async () => {
    const g = fakeGraph();
    const read = cachedDifferencesKg(g, { maxEntries: 2 });
    for (const s of ['a', 'b', 'c', 'a']) await read({ subcategoryId: s, perDisease: 30 });
    assert.deepEqual(g.reads, ['query/differences-kg:a', 'query/differences-kg:b', 'query/differences-kg:c', 'query/differences-kg:a']);
  });

  it('uncached: every query reads Neo4j', async () => {
    const g = fakeGraph();
    const read = uncachedDifferencesKg(g);
    await read({ subcategoryId: 's1', perDisease: 30 });
    await read({ subcategoryId: 's1', perDisease: 30 });
    assert.equal(g.reads.length, 2);
  });
});
