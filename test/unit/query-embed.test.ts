import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { embedBatch } from '../../src/query/embed.js';

describe('query embedBatch', () => {
  const hashed = new HashedEmbedder();
  const texts = ['Sharp chest pain, worse when breathing in', 'fièvre et toux', 'no fever', 'E_55 / V_89'];

  it('gives the same unit vectors through the Float32Array path as through LangChain embedDocuments', async () => {
    const fast = await embedBatch({ id: hashed.id, embeddings: hashed }, texts);
    // Only embedDocuments visible: the number[] path.
    const slow = await embedBatch({ id: hashed.id, embeddings: { embedDocuments: (t: string[]) => hashed.embedDocuments(t) } }, texts);
    assert.equal(fast.length, texts.length);
    fast.forEach((v, i) => {
      assert.ok(v instanceof Float32Array);
      assert.deepEqual(Array.from(v), Array.from(slow[i]!));
      const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
      assert.ok(Math.abs(norm - 1) < 1e-5, `unit length, got ${norm}`);
    });
  });

  it('normalises vectors an embedder returns un-normalised, and leaves zero vectors at zero', async () => {
    const raw = { embedDocuments: async (t: string[]) => t.map((s) => (s ? [3, 4] : [0, 0])) };
    const [a, z] = await embedBatch({ id: 'fake', embeddings: raw }, ['x', '']);
    assert.deepEqual(Array.from(a!), [Math.fround(0.6), Math.fround(0.8)]);
    assert.deepEqual(Array.from(z!), [0, 0]);
  });
});
