import { strict as assert } from 'node:assert';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { createGate } from '../../src/gate/gate.js';
import { parseGateParams, resolveGateMode } from '../../src/gate/gate-params.js';
import { SentenceClassifier } from '../../src/gate/sentence-classifier.js';
import { EXTRA_FEATURES, N_EXTRA } from '../../src/gate/sentence-features.js';
import { DEFAULT_GATE_PARAMS } from '../../src/gate/types.js';

/**
 * A hand-weighted classifier that ignores the embedding: digits → A, negation → B,
 * anything else → C (bias). Lets the test know each sentence's label in advance.
 */
function ruleClassifier(dim: number): SentenceClassifier {
  const D = dim + N_EXTRA;
  const w = new Float32Array(3 * D);
  w[0 * D + dim + EXTRA_FEATURES.indexOf('hasDigit')] = 4;
  w[1 * D + dim + EXTRA_FEATURES.indexOf('hasNegation')] = 4;
  return new SentenceClassifier('hashed-ngram-v1:64', dim, w, Float32Array.from([0, 0, 1]));
}

describe('gate: createGate / assess', () => {
  const embedder = new HashedEmbedder({ dim: 64 });
  const gate = createGate({ classifier: ruleClassifier(64), embedder, params: DEFAULT_GATE_PARAMS });

  it('labels each sentence, scores I_norm and decides; the result is the trace shape', async () => {
    const t = await gate.assess('T 38.2 C. BP 90/60. Denies chest pain.\n- likes gardening');
    assert.deepEqual(t.sentences, [
      { text: 'T 38.2 C.', label: 'A' },
      { text: 'BP 90/60.', label: 'A' },
      { text: 'Denies chest pain.', label: 'B' },
      { text: 'likes gardening', label: 'C' },
    ]);
    assert.ok(Math.abs(t.score - (2 + 0.5 + 0.1) / 4) < 1e-12);
    assert.equal(t.decision, 'direct');
    assert.equal(t.warning, null);
    assert.deepEqual(Object.keys(t).sort(), ['decision', 'score', 'sentences', 'warning']);
  });

  it('a one-line complaint without detail gets the warning', async () => {
    const t = await gate.assess('feeling unwell');
    assert.equal(t.decision, 'retrieve-warn');
    assert.ok(t.warning !== null && !t.warning.includes('unwell'), 'warning never echoes patient text');
  });

  it('assessSentences takes pre-split units and an empty input warns', async () => {
    const t = await gate.assessSentences(['no fever', 'cough']);
    assert.deepEqual([t.sentences.map((s) => s.label), t.score, t.decision], [['B', 'C'], 0.3, 'retrieve']);
    const empty = await gate.assess('   ');
    assert.deepEqual([empty.score, empty.decision, empty.sentences], [0, 'retrieve-warn', []]);
  });

  it('uses the configured thresholds (ICA-RAG 0.3 / 0.1)', async () => {
    const ica = createGate({ classifier: ruleClassifier(64), embedder, params: { ...DEFAULT_GATE_PARAMS, theta1: 0.3, theta2: 0.1 } });
    assert.equal((await ica.assessSentences(['no fever', 'cough'])).decision, 'direct');
  });
});

describe('gate: params and mode', () => {
  it('parses partial params over the defaults and rejects bad ones', () => {
    assert.deepEqual(parseGateParams({ theta1: 0.3, theta2: 0.1 }), { ok: true, value: { ...DEFAULT_GATE_PARAMS, theta1: 0.3, theta2: 0.1 } });
    assert.deepEqual(parseGateParams(undefined), { ok: true, value: DEFAULT_GATE_PARAMS });
    const flipped = parseGateParams({ theta1: 0.2 });
    assert.ok(!flipped.ok && /theta2 ≤ theta1/.test(flipped.error));
    const unknown = parseGateParams({ thetaX: 1 });
    assert.ok(!unknown.ok);
    const alpha = parseGateParams({ alpha: 0 });
    assert.ok(!alpha.ok && alpha.error.startsWith('gate.alpha'));
  });

  it('request overrides config; auto follows classifier availability; forced on without classifier is an error', () => {
    const r = (request: 'auto' | 'on' | 'off' | null, config: 'auto' | 'on' | 'off', classifierAvailable: boolean) => resolveGateMode({ request, config, classifierAvailable });
    assert.deepEqual(r(null, 'auto', true), { ok: true, value: true });
    assert.deepEqual(r(null, 'auto', false), { ok: true, value: false });
    assert.deepEqual(r('off', 'on', true), { ok: true, value: false });
    assert.deepEqual(r('on', 'off', true), { ok: true, value: true });
    assert.deepEqual(r('auto', 'off', true), { ok: true, value: false });
    assert.ok(!r('on', 'auto', false).ok);
    assert.ok(!r(null, 'on', false).ok);
  });
});
