import assert from 'node:assert/strict';
import { agnes } from 'ml-hclust';
import { nnChain, type Linkage } from '../../kg-build/nn-chain.js';
import { seededRandom } from '../../src/util/rng.js';

/** Groups as sorted index lists, sorted: comparable whatever order the trees list them in. */
const canon = (groups: { indices(): number[] }[]) => groups.map((g) => g.indices().sort((a, b) => a - b).join(',')).sort();

describe('kg-build nn-chain: the dendrogram agnes builds, in quadratic time', () => {
  for (const method of ['ward', 'average', 'complete'] as Linkage[]) {
    it(`${method}: the same groups for every k and the same cuts as ml-hclust agnes, on random points`, () => {
      const rng = seededRandom(method.length);
      for (let trial = 0; trial < 5; trial++) {
        const n = 20 + Math.floor(rng() * 40);
        const pts = Array.from({ length: n }, () => [rng(), rng(), rng()]);
        const dist = (i: number, j: number) => Math.hypot(...pts[i]!.map((v, k) => v - pts[j]![k]!));
        const matrix = pts.map((_, i) => pts.map((_, j) => (i === j ? 0 : dist(i, j))));
        const want = agnes(matrix, { method, isDistanceMatrix: true });
        const got = nnChain(n, dist, method);
        assert.ok(Math.abs(got.height - want.height) < 1e-9, `root height ${got.height} vs ${want.height}`);
        for (const k of [2, 3, 5, 8, 13]) assert.deepEqual(canon(got.group(k).children), canon(want.group(k).children), `${method} trial ${trial} k=${k}`);
        for (const t of [0.1, 0.3, 0.6]) assert.deepEqual(canon(got.cut(t)), canon(want.cut(t)), `${method} trial ${trial} cut ${t}`);
      }
    });
  }

  it('one item is a leaf; two are one merge at their distance', () => {
    assert.equal(nnChain(1, () => 0, 'ward').indices()[0], 0);
    const two = nnChain(2, () => 0.7, 'average');
    assert.equal(two.height, 0.7);
    assert.deepEqual(two.indices().sort(), [0, 1]);
  });
});
