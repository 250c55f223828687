import assert from 'node:assert/strict';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { VectorHit, VectorIndexLike } from '../../src/adapters/faiss/types.js';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { FeatureMatrix } from '../../src/query/feature-matrix.js';

const e = new HashedEmbedder();
const phrases = ['sharp chest pain', 'pain in the left arm', 'dry cough', 'cough with sputum', 'fever above 38', 'shortness of breath', 'wheezing when breathing', 'itchy rash', 'swollen lips', 'nausea and vomiting', 'headache behind the eyes', 'sore throat', 'runny nose', 'pain when swallowing', 'palpitations', 'dizziness on standing'];
const ids = phrases.map((_, i) => `f${i}`);
const vectors = phrases.map((p) => e.embedVector(p));

describe('FeatureMatrix (exact sparse feature search)', () => {
  it('returns the same top-k ids and scores as FAISS flat for hashed finding vectors', () => {
    const flat = FaissVectorIndex.build({ kind: 'flat', dim: e.dim, ids, vectors });
    const m = FeatureMatrix.fromVectors({ ids, vectors, dim: e.dim });
    const queries = ['chest pain', 'coughing with sputum', 'rash that itches', 'breathless and wheezing', 'throat is sore'].map((q) => e.embedVector(q));
    const got = m.searchMany(queries, 3);
    const want = flat.searchMany(queries, 3);
    got.forEach((hits, q) => {
      assert.deepEqual(hits.map((h) => h.id), want[q]!.map((h) => h.id));
      hits.forEach((h, i) => assert.ok(Math.abs(h.score - want[q]![i]!.score) < 1e-5));
    });
  });

  it('compares un-normalised queries as unit vectors and caps k at the size', () => {
    const m = FeatureMatrix.fromVectors({ ids, vectors, dim: e.dim });
    const q = e.embedVector('dry cough').map((x) => x * 7);
    const hits = m.search(q, 100);
    assert.equal(hits.length, ids.length);
    assert.equal(hits[0]!.id, 'f2');
    assert.ok(Math.abs(hits[0]!.score - 1) < 1e-5);
  });

  it('sends dense queries to the fallback index', () => {
    const calls: number[] = [];
    const fallback: VectorIndexLike = { dim: e.dim, size: 1, kind: 'flat', search: (_q, k): VectorHit[] => (calls.push(k), [{ id: 'dense', score: 0.5 }]), searchMany: () => [] };
    const m = FeatureMatrix.fromVectors({ ids, vectors, dim: e.dim, fallback });
    const dense = new Float32Array(e.dim).fill(1);
    assert.deepEqual(m.search(dense, 2), [{ id: 'dense', score: 0.5 }]);
    assert.deepEqual(calls, [2]);
    assert.notEqual(m.search(vectors[0]!, 1)[0]!.id, 'dense');
  });

  it('scores exactly like a dense dot product over all features (posting lists skip only zeros)', () => {
    const more = Array.from({ length: 300 }, (_, i) => `${phrases[i % phrases.length]} ${['left', 'right', 'severe', 'mild', 'at night'][i % 5]} ${i}`);
    const vecs = more.map((p) => e.embedVector(p));
    const m = FeatureMatrix.fromVectors({ ids: more.map((_, i) => `g${i}`), vectors: vecs, dim: e.dim });
    for (const text of ['severe chest pain at night', 'mild cough', 'rash 17']) {
      const q = e.embedVector(text);
      const dense = vecs.map((v) => {
        let s = 0;
        for (let j = 0; j < e.dim; j++) if (q[j] !== 0) s = Math.fround(s + Math.fround(q[j]! * v[j]!));
        return s;
      });
      const hits = m.search(q, 5);
      const want = dense.map((s, i) => ({ i, s })).sort((a, b) => b.s - a.s || a.i - b.i).slice(0, 5);
      assert.deepEqual(hits.map((h) => h.id), want.map((w) => `g${w.i}`));
      hits.forEach((h, r) => assert.ok(Math.abs(h.score - want[r]!.s) < 1e-6, `${h.score} vs ${want[r]!.s}`));
    }
  });
});
