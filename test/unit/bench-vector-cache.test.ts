import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../bench/scale/generate.js';
import { cachedEmbeddedChunks, cachePaths } from '../../bench/lib/vector-cache.js';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';

/** Counts texts embedded, so a cache hit (nothing embedded) is visible. */
class CountingEmbedder extends HashedEmbedder {
  embedded = 0;
  constructor(private readonly tag: string) {
    super({ dim: 16 });
  }
  override get id(): string {
    return `${super.id}:${this.tag}`;
  }
  override embedVectors(texts: readonly string[]): Float32Array[] {
    this.embedded += texts.length;
    return super.embedVectors(texts);
  }
}

async function collect(datasetDir: string, embedder: CountingEmbedder) {
  const out: { ids: string[]; vectors: Float32Array; fromCache: boolean }[] = [];
  for await (const c of cachedEmbeddedChunks({ datasetDir, embedder, chunk: 70 })) out.push(c);
  return out;
}

describe('bench: embedded-vector cache', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-vcache-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('embeds once, then streams the same chunks from the cache; another embedder id re-embeds', async () => {
    const ds = await generate({ size: 150, outDir: join(dir, 'ddxplus-150'), seed: 2 });
    const first = new CountingEmbedder('a');
    const a = await collect(ds.dir, first);
    assert.equal(first.embedded, 150);
    assert.deepEqual(a.map((c) => [c.ids.length, c.fromCache]), [[70, false], [70, false], [10, false]]);
    assert.equal((await stat(cachePaths(ds.dir).vectors)).size, 150 * 16 * 4);

    const again = new CountingEmbedder('a');
    const b = await collect(ds.dir, again);
    assert.equal(again.embedded, 0);
    assert.ok(b.every((c) => c.fromCache));
    assert.deepEqual(b.map((c) => c.ids), a.map((c) => c.ids));
    b.forEach((c, i) => assert.deepEqual(c.vectors, a[i]!.vectors));

    const other = new CountingEmbedder('b');
    await collect(ds.dir, other);
    assert.equal(other.embedded, 150);
  });
});
