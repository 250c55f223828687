import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaissVectorIndex, chooseIndexKind } from '../../src/adapters/faiss/vector-index.js';
import type { IndexKind } from '../../src/adapters/faiss/types.js';
import { ArtifactError, InputError } from '../../src/errors.js';

/** Real faiss-node (native binding built by scripts/build-faiss-node.sh). */

const DIM = 32;
const N = 2000;

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** Clustered data (like records of a few diseases), so IVF/HNSW have structure to exploit. */
function dataset(seed: number): { ids: string[]; flat: Float32Array; rows: Float32Array[] } {
  const r = rng(seed);
  const centers = Array.from({ length: 20 }, () => unit(Float32Array.from({ length: DIM }, () => r() - 0.5)));
  const rows = Array.from({ length: N }, (_, i) =>
    unit(centers[i % centers.length]!.map((c) => c + (r() - 0.5) * 0.6)),
  );
  const flat = new Float32Array(N * DIM);
  rows.forEach((row, i) => flat.set(row, i * DIM));
  return { ids: rows.map((_, i) => `rec-${i}`), flat, rows };
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

function bruteNearest(rows: Float32Array[], q: Float32Array): number {
  let best = -1;
  let bestScore = -Infinity;
  rows.forEach((row, i) => {
    const s = dot(row, q);
    if (s > bestScore) [best, bestScore] = [i, s];
  });
  return best;
}

describe('FaissVectorIndex (real faiss-node)', function () {
  const data = dataset(7);
  const r = rng(99);
  const queries = Array.from({ length: 60 }, (_, i) => unit(data.rows[(i * 31) % N]!.map((x) => x + (r() - 0.5) * 0.2)));
  const truth = queries.map((q) => `rec-${bruteNearest(data.rows, q)}`);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-faiss-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const floors: Record<IndexKind, number> = { flat: 1, hnsw: 0.9, ivf: 0.6 };
  for (const kind of ['flat', 'hnsw', 'ivf'] as const) {
    it(`${kind}: finds the nearest neighbour, returns cosine scores, and survives save/load`, async () => {
      const index = FaissVectorIndex.build({ kind, dim: DIM, ids: data.ids, vectors: kind === 'hnsw' ? data.rows : data.flat });
      assert.equal(index.size, N);
      assert.equal(index.kind, kind);

      // A stored vector finds itself with cosine 1.
      const self = index.search(data.rows[123]!, 3);
      assert.equal(self[0]!.id, 'rec-123');
      assert.ok(Math.abs(self[0]!.score - 1) < 1e-4, `self score ${self[0]!.score}`);

      const batched = index.searchMany(queries, 5);
      assert.equal(batched.length, queries.length);
      const recall = batched.filter((hits, i) => hits[0]!.id === truth[i]).length / queries.length;
      assert.ok(recall >= floors[kind], `${kind} recall@1 ${recall} below ${floors[kind]}`);
      // Scores are the true cosine similarity, best first.
      for (const [qi, hits] of batched.entries()) {
        const row = Number(hits[0]!.id.slice(4));
        assert.ok(Math.abs(hits[0]!.score - dot(data.rows[row]!, queries[qi]!)) < 1e-4);
        for (let j = 1; j < hits.length; j++) assert.ok(hits[j - 1]!.score >= hits[j]!.score);
      }
      // Batched and single searches agree.
      assert.deepEqual(index.search(queries[5]!, 5), batched[5]);

      const file = join(dir, `${kind}.faiss`);
      await index.save(file);
      const loaded = await FaissVectorIndex.load(file, `${file}.ids.json`);
      assert.equal(loaded.kind, kind);
      assert.equal(loaded.dim, DIM);
      assert.equal(loaded.size, N);
      assert.deepEqual(loaded.searchMany(queries, 5), batched);
    });
  }

  it('scales un-normalised input to cosine, clamps k, and handles an empty index', () => {
    const index = FaissVectorIndex.create({ kind: 'flat', dim: 2 });
    assert.deepEqual(index.search(Float32Array.of(1, 0), 3), []);
    index.add(['a', 'b'], [Float32Array.of(10, 0), Float32Array.of(3, 3)]);
    const hits = index.search(Float32Array.of(5, 5), 10);
    assert.deepEqual(hits.map((h) => h.id), ['b', 'a']);
    assert.ok(Math.abs(hits[1]!.score - Math.SQRT1_2) < 1e-6);
  });

  it('ivf created without nlist sizes its lists from the first add, even a small one', () => {
    for (const n of [10, 500]) {
      const index = FaissVectorIndex.create({ kind: 'ivf', dim: DIM });
      index.add(data.ids.slice(0, n), data.rows.slice(0, n));
      assert.equal(index.size, n);
      assert.equal(index.search(data.rows[n - 1]!, 1)[0]!.id, `rec-${n - 1}`);
    }
    assert.throws(() => FaissVectorIndex.create({ kind: 'ivf', dim: DIM, nlist: 16 }).add(['a'], data.rows[0]!), InputError);
  });

  it('rejects duplicate ids and wrong dimensions with InputError', () => {
    const index = FaissVectorIndex.create({ kind: 'flat', dim: 2 });
    index.add(['a'], Float32Array.of(1, 0));
    assert.throws(() => index.add(['a'], Float32Array.of(0, 1)), InputError);
    assert.throws(() => index.add(['b'], Float32Array.of(0, 1, 1)), InputError);
    assert.throws(() => index.search(Float32Array.of(1, 0, 0), 1), InputError);
    assert.equal(index.size, 1);
  });

  it('a corrupt, truncated or missing file gives an ArtifactError naming the file', async () => {
    const index = FaissVectorIndex.build({ kind: 'flat', dim: DIM, ids: data.ids.slice(0, 50), vectors: data.rows.slice(0, 50) });
    const file = join(dir, 'corrupt.faiss');
    const ids = `${file}.ids.json`;
    await index.save(file);
    const original = await readFile(file);

    const expectArtifact = async (path: string, pattern: RegExp) => {
      await assert.rejects(FaissVectorIndex.load(file, ids), (e: unknown) => {
        assert.ok(e instanceof ArtifactError, String(e));
        assert.equal(e.path, path);
        assert.ok(e.message.includes(path), e.message);
        assert.match(e.message, pattern);
        return true;
      });
    };

    const flipped = Buffer.from(original);
    const at = flipped.length - 10;
    flipped[at] = flipped[at]! ^ 0xff;
    await writeFile(file, flipped);
    await expectArtifact(file, /corrupt/);

    await truncate(file, 20);
    await expectArtifact(file, /corrupt/);

    await writeFile(file, original);
    await writeFile(ids, '{"format": "dxgraph-faiss-ids/1", "ids": [');
    await expectArtifact(ids, /corrupt/);

    await rm(ids);
    await expectArtifact(ids, /not found/);
    await rm(file);
    await expectArtifact(file, /not found/);
  });

  it('chooseIndexKind: flat below the threshold, approximate above', () => {
    assert.equal(chooseIndexKind(999, { flatBelow: 1000 }), 'flat');
    assert.equal(chooseIndexKind(1000, { flatBelow: 1000 }), 'ivf');
    assert.equal(chooseIndexKind(5000, { flatBelow: 1000, approximate: 'hnsw' }), 'hnsw');
  });
});
