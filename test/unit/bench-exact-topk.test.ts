import assert from 'node:assert/strict';
import { ExactTopK, scanChunk } from '../../bench/lib/exact-topk.js';
import { seededRandom } from '../../src/util/rng.js';

describe('bench exact top-k (ground truth for recall)', () => {
  const dim = 9;
  const rnd = seededRandom(5);
  const rows = Float32Array.from({ length: 300 * dim }, () => rnd() - 0.5);
  const ids = Array.from({ length: 300 }, (_, i) => `r${i}`);
  const queries = Array.from({ length: 7 }, () => Float32Array.from({ length: dim }, () => rnd() - 0.5));

  it('finds the k best rows by inner product, best first', () => {
    const t = new ExactTopK(5);
    t.scan(queries[0]!, rows, dim, ids);
    const all = ids.map((id, r) => ({ id, score: queries[0]!.reduce((s, x, i) => s + x * rows[r * dim + i]!, 0) })).sort((a, b) => b.score - a.score);
    assert.deepEqual(t.sorted().map((h) => h.id), all.slice(0, 5).map((h) => h.id));
  });

  it('scanChunk (four queries per pass) gives the same top-k as one scan per query, over several chunks', () => {
    const one = queries.map(() => new ExactTopK(10));
    const four = queries.map(() => new ExactTopK(10));
    for (const [start, end] of [[0, 120], [120, 300]] as const) {
      const chunk = rows.subarray(start * dim, end * dim);
      const chunkIds = ids.slice(start, end);
      queries.forEach((q, i) => one[i]!.scan(q, chunk, dim, chunkIds));
      scanChunk(four, queries, chunk, dim, chunkIds);
    }
    queries.forEach((_, i) => {
      assert.deepEqual(four[i]!.sorted().map((h) => h.id), one[i]!.sorted().map((h) => h.id));
      four[i]!.sorted().forEach((h, j) => assert.ok(Math.abs(h.score - one[i]!.sorted()[j]!.score) < 1e-9));
    });
  });
});
