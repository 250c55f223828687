import assert from 'node:assert/strict';
import { HashedEmbedder, tokenize } from '../../src/adapters/embeddings/hashed-embedder.js';
import { seededRandom } from '../../src/util/rng.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';

/** The string-building implementation the fast one replaced: the definition of `hashed-ngram-v1`. */
function referenceVector(text: string, dim = 512, charWeight = 0.35): Float32Array {
  const fnv1a = (s: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  };
  const v = new Float32Array(dim);
  const add = (gram: string, w: number) => {
    const h = fnv1a(gram);
    v[h % dim]! += h & 0x80000000 ? -w : w;
  };
  const words = tokenize(text);
  for (let i = 0; i < words.length; i++) {
    add(`w:${words[i]}`, 1);
    if (i + 1 < words.length) add(`b:${words[i]}_${words[i + 1]}`, 0.7);
    const padded = ` ${words[i]} `;
    for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, charWeight);
  }
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

const bits = (v: Float32Array) => Array.from(new Uint32Array(v.buffer, v.byteOffset, v.length));

const FIXED = [
  '',
  '   ',
  'a the of',
  'Fever',
  'Patient: 34-year-old female.\nChief complaint: cough; fever 38.2 C, b.i.d. dosing...',
  'Douleur thoracique aiguë, fièvre élevée, ÉTAT général altéré — café, naïve, Ærø',
  'İstanbul KELVIN \u212a ﬁnance ① ½ Ｆｕｌｌｗｉｄｔｈ',
  '...leading.dots. and.trailing... e.g. i.e. 120/80 mmHg, SpO2 94%',
  'Do you have pain somewhere, related to your reason for consulting? Yes: the flank (R), the iliac fossa (L).',
  'word'.repeat(3000),
  'x '.repeat(5000),
  'temperature 38°C, ½ tablet, 5 µg, 1ª dose', // only Latin-1 supplement chars: NFKD turns ½ into 1⁄2
  'emoji 😷 and CJK 咳嗽 mixed with ascii',
];

function randomTexts(n: number, seed: number): string[] {
  const rnd = seededRandom(seed);
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ....,,;:!?-_/()\n\téèàçüöÉßñ½ª°';
  return Array.from({ length: n }, () => {
    const len = Math.floor(rnd() * 400);
    let s = '';
    for (let i = 0; i < len; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
    return s;
  });
}

describe('HashedEmbedder (allocation-free hashing)', () => {
  const embedder = new HashedEmbedder();

  it('keeps the embedder id', () => {
    assert.equal(embedder.id, 'hashed-ngram-v1:512');
    assert.equal(new HashedEmbedder({ dim: 64 }).id, 'hashed-ngram-v1:64');
  });

  it('is bit-identical to the string-gram reference on fixed, accented, punctuated and long texts', () => {
    for (const text of FIXED) assert.deepEqual(bits(embedder.embedVector(text)), bits(referenceVector(text)), JSON.stringify(text.slice(0, 40)));
  });

  it('is bit-identical on random texts, other dims and char weights', () => {
    const other = new HashedEmbedder({ dim: 300, charWeight: 0.5 });
    for (const text of randomTexts(300, 11)) {
      assert.deepEqual(bits(embedder.embedVector(text)), bits(referenceVector(text)));
      assert.deepEqual(bits(other.embedVector(text)), bits(referenceVector(text, 300, 0.5)));
    }
  });

  it('is bit-identical on the DDXPlus sample record renderings', async function () {
    this.timeout(30_000);
    const source = new DdxplusSource('datasets/ddxplus', { strict: false });
    let n = 0;
    try {
      for await (const r of source.records()) {
        assert.deepEqual(bits(embedder.embedVector(r.text)), bits(referenceVector(r.text)), r.id);
        for (const f of r.findings) assert.deepEqual(bits(embedder.embedVector(f.text)), bits(referenceVector(f.text)));
        if (++n === 150) break;
      }
    } finally {
      await source.close();
    }
    assert.equal(n, 150);
  });

  it('embedVectors, embedDocuments and embedQuery agree with embedVector', async () => {
    const texts = FIXED.slice(3, 9);
    const fast = embedder.embedVectors(texts);
    const docs = await embedder.embedDocuments(texts);
    texts.forEach((t, i) => {
      assert.deepEqual(bits(fast[i]!), bits(referenceVector(t)));
      assert.deepEqual(docs[i], Array.from(referenceVector(t)));
    });
    assert.deepEqual(await embedder.embedQuery(texts[0]!), Array.from(referenceVector(texts[0]!)));
  });

  it('gives different vectors for different texts (the test would pass on a constant otherwise)', () => {
    assert.notDeepEqual(bits(embedder.embedVector('fever and cough')), bits(embedder.embedVector('cough and fever')));
    assert.ok(embedder.embedVector('fever').some((x) => x !== 0));
  });
});
