import assert from 'node:assert/strict';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { greedyGroups, greedyGroupsAllPairs } from '../../kg-build/near-duplicates.js';
import { dot, toUnit } from '../../kg-build/vectors.js';

/** Seeded LCG in [0, 1): the same sets on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Clusters of near-duplicates (a centre plus small noise), singletons, and exact copies, shuffled. */
function generated(n: number, dim: number, seed: number): Float32Array[] {
  const r = rng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
  const centres = Array.from({ length: Math.ceil(n / 6) }, () => Float32Array.from({ length: dim }, gauss));
  const out: Float32Array[] = [];
  while (out.length < n) {
    const c = centres[Math.floor(r() * centres.length)]!;
    const noise = r() < 0.3 ? 0 : r() * 0.5; // 0: an exact copy of the centre
    out.push(toUnit(Float32Array.from(c, (x) => x + noise * gauss())));
  }
  return out;
}

const BODY = ['chest', 'abdominal', 'back', 'head', 'joint', 'ear', 'throat', 'pelvic', 'flank', 'neck'];
const WHAT = ['pain', 'pains', 'ache', 'swelling'];
const HOW = ['', 'severe ', 'sudden ', 'chronic '];

/** Problem-list phrases with the variants a hospital's free text has: plurals, word order, typos. */
function realistic(): string[] {
  const out: string[] = [];
  for (const b of BODY) for (const w of WHAT) for (const h of HOW) out.push(`${h}${b} ${w}`, `${w} in ${b}`, `${h}${b}${w.slice(0, -1)} ${w.slice(-1)}`);
  return out.sort();
}

const same = (a: Int32Array, b: Int32Array) => assert.deepEqual([...a], [...b]);

describe('kg-build near-duplicates: indexed greedy grouping equals all pairs', () => {
  it('generated clusters, copies and singletons, small k so candidate lists are grown', () => {
    const vecs = generated(400, 32, 11);
    for (const minSim of [0.92, 0.8, 0.99]) {
      const all = greedyGroupsAllPairs(vecs, minSim);
      same(greedyGroups(vecs, minSim, { indexFrom: 0, batch: 37, k: 2 }), all);
      assert.ok(all.some((r, i) => r !== i), `some items merged at ${minSim}`);
      assert.ok(all.some((r, i) => r === i && i > 0), `several groups at ${minSim}`);
    }
  });

  it('realistic free-text findings through the hashed embedder', () => {
    const embedder = new HashedEmbedder();
    const vecs = embedder.embedVectors(realistic());
    const all = greedyGroupsAllPairs(vecs, 0.92);
    same(greedyGroups(vecs, 0.92, { indexFrom: 0, batch: 64, k: 4 }), all);
    assert.ok(all.filter((r, i) => r !== i).length > 10, 'the variants merge');
  });

  it('a pair exactly at the threshold merges as in all pairs (float32 index rounding absorbed)', () => {
    const vecs = generated(300, 64, 5);
    const minSim = dot(vecs[3]!, vecs.find((v, i) => i > 3 && dot(vecs[3]!, v) > 0.5 && dot(vecs[3]!, v) < 1)!);
    const all = greedyGroupsAllPairs(vecs, minSim);
    same(greedyGroups(vecs, minSim, { indexFrom: 0 }), all);
  });
});
