import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadClassifier, saveClassifier } from '../../src/gate/classifier-store.js';
import { mulberry32, SentenceClassifier, type TrainingSentence } from '../../src/gate/sentence-classifier.js';
import { SENTENCE_LABELS } from '../../src/gate/types.js';

const DIM = 16;

/** Three Gaussian clusters, one per label, on different axes: linearly separable. */
function toyData(n: number, seed: number): TrainingSentence[] {
  const rng = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rng() + 1e-12)) * Math.cos(2 * Math.PI * rng());
  return Array.from({ length: n }, (_, i) => {
    const k = i % 3;
    const v = new Float32Array(DIM).map(() => 0.15 * gauss());
    v[k * 2] = v[k * 2]! + 1;
    return { vector: v, text: `sentence ${i}`, label: SENTENCE_LABELS[k]! };
  });
}

const accuracy = (c: SentenceClassifier, data: TrainingSentence[]) => data.filter((d) => c.predict(d.vector, d.text).label === d.label).length / data.length;

describe('gate: sentence classifier', () => {
  const train = toyData(300, 1);
  const test = toyData(150, 2);

  it('learns a separable toy problem (held-out accuracy ≥ 0.95; untrained is at chance)', () => {
    const untrained = new SentenceClassifier('toy', DIM, new Float32Array(3 * (DIM + 5)), new Float32Array(3));
    assert.ok(accuracy(untrained, test) < 0.5);
    const c = SentenceClassifier.train(train, { embedderId: 'toy', dim: DIM, epochs: 20 });
    assert.ok(accuracy(c, test) >= 0.95, `accuracy ${accuracy(c, test)}`);
    const p = c.predict(test[0]!.vector, test[0]!.text);
    assert.ok(Math.abs(p.probs[0] + p.probs[1] + p.probs[2] - 1) < 1e-6);
  });

  it('class weights let a rare label be learnt', () => {
    const skewed = train.filter((d, i) => d.label !== 'A' || i % 10 === 0); // 10 A vs 100 B, 100 C
    const c = SentenceClassifier.train(skewed, { embedderId: 'toy', dim: DIM, epochs: 20 });
    const testA = test.filter((d) => d.label === 'A');
    assert.ok(accuracy(c, testA) >= 0.9, `A recall ${accuracy(c, testA)}`);
  });

  it('is deterministic given a seed, and the seed matters', () => {
    const a = SentenceClassifier.train(train, { embedderId: 'toy', dim: DIM, epochs: 3, seed: 7 });
    const b = SentenceClassifier.train(train, { embedderId: 'toy', dim: DIM, epochs: 3, seed: 7 });
    const c = SentenceClassifier.train(train, { embedderId: 'toy', dim: DIM, epochs: 3, seed: 8 });
    assert.deepEqual(Array.from(a.weights), Array.from(b.weights));
    assert.notDeepEqual(Array.from(a.weights), Array.from(c.weights));
  });

  it('rejects a vector of the wrong size', () => {
    const c = SentenceClassifier.train(train.slice(0, 30), { embedderId: 'toy', dim: DIM, epochs: 1 });
    assert.throws(() => c.predict(new Float32Array(DIM + 1), 'x'), /dimensions/);
  });

  describe('save / load', () => {
    let dir = '';
    before(async () => (dir = await mkdtemp(join(tmpdir(), 'gate-clf-'))));
    after(async () => rm(dir, { recursive: true, force: true }));

    it('round-trips: the loaded classifier predicts the same probabilities', async () => {
      const c = SentenceClassifier.train(train, { embedderId: 'toy', dim: DIM, epochs: 5 });
      const path = join(dir, 'nested', 'gate-classifier.json');
      await saveClassifier(path, c);
      const loaded = await loadClassifier(path, { expectEmbedder: 'toy' });
      assert.ok(loaded.ok);
      for (const d of test.slice(0, 20)) assert.deepEqual(loaded.value.predict(d.vector, d.text), c.predict(d.vector, d.text));
    });

    it('fails with ArtifactError on a missing file, a foreign file, or another embedder', async () => {
      const missing = await loadClassifier(join(dir, 'nope.json'));
      assert.ok(!missing.ok && missing.error.code === 'ARTIFACT');
      const foreign = join(dir, 'foreign.json');
      await writeFile(foreign, JSON.stringify({ format: 'something-else' }));
      const bad = await loadClassifier(foreign);
      assert.ok(!bad.ok && /not a gate classifier/.test(bad.error.message) && bad.error.path === foreign);
      const c = SentenceClassifier.train(train.slice(0, 30), { embedderId: 'toy', dim: DIM, epochs: 1 });
      const path = join(dir, 'toy.json');
      await saveClassifier(path, c);
      const other = await loadClassifier(path, { expectEmbedder: 'hashed-ngram-v1:512' });
      assert.ok(!other.ok && /trained on embedder toy/.test(other.error.message));
    });
  });
});
