import assert from 'node:assert/strict';
import { warmDifferencesQuery } from '../../src/query/warm-up.js';

describe('server start-up warms the differences-KG query (Neo4j plans it before the first question)', () => {
  const graph = () => {
    const reads: Array<[string, Record<string, unknown>]> = [];
    return { reads, read: async (name: string, params: Record<string, unknown> = {}) => (reads.push([name, params]), []) };
  };

  it("reads the first subcategory's differences once, as a query would", async () => {
    const g = graph();
    await warmDifferencesQuery(g as never, { subcategories: [{ id: 'sub:a' }, { id: 'sub:b' }] as never });
    assert.deepEqual(g.reads, [['query/differences-kg', { subcategoryId: 'sub:a' }]]);
  });

  it('a KG without subcategories reads nothing', async () => {
    const g = graph();
    await warmDifferencesQuery(g as never, { subcategories: [] });
    assert.deepEqual(g.reads, []);
  });
});
