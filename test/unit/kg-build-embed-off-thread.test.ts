import assert from 'node:assert/strict';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { batchEmbedder, OFF_THREAD_FROM } from '../../kg-build/embed-off-thread.js';
import { embedUnit } from '../../kg-build/vectors.js';

const bits = (v: Float32Array) => Array.from(new Uint32Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength)));
const TEXTS = ['fever and cough', 'Café naïve', '', 'pain in the chest, 3 days', 'x'.repeat(5000)];

describe('kg-build: record batches embedded off the main thread', () => {
  it('the offline embedder on a worker gives the same unit vectors, batch by batch, in order', async () => {
    const embedder = new HashedEmbedder({ dim: 64, charWeight: 0.5 });
    const e = batchEmbedder(embedder, OFF_THREAD_FROM);
    try {
      const [a, b] = await Promise.all([e.embed(TEXTS), e.embed(TEXTS.slice(1, 3))]);
      assert.deepEqual(a!.map(bits), (await embedUnit(embedder, TEXTS)).map(bits));
      assert.deepEqual(b!.map(bits), (await embedUnit(embedder, TEXTS.slice(1, 3))).map(bits));
    } finally {
      await e.close();
    }
    await assert.rejects(e.embed(['after close']), /closed/);
  });

  it('any other embedder is called in place, and the offline one for a small build', async () => {
    const small = batchEmbedder(new HashedEmbedder({ dim: 8 }), OFF_THREAD_FROM - 1);
    assert.deepEqual((await small.embed(['a b'])).map(bits), (await embedUnit(new HashedEmbedder({ dim: 8 }), ['a b'])).map(bits));
    await small.close();
    const calls: string[][] = [];
    const other = { embedDocuments: async (t: string[]) => (calls.push(t), t.map(() => [3, 4])) };
    const e = batchEmbedder(other as never, OFF_THREAD_FROM);
    assert.deepEqual((await e.embed(['a', 'b'])).map((v) => [...v]), [[0.6000000238418579, 0.800000011920929], [0.6000000238418579, 0.800000011920929]]);
    assert.deepEqual(calls, [['a', 'b']]);
    await e.close();
  });
});
