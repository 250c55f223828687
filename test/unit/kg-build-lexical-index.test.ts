import assert from 'node:assert/strict';
import { lexicalTerms, termCounts, termHash, type LexicalData } from '../../src/query/lexical-index.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';
import { LexicalIndexBuilder } from '../../kg-build/lexical-index.js';

/** The string version of termCounts: termHash of every lexicalTerms term. */
function referenceCounts(salt: number, text: string): Map<number, number> {
  const m = new Map<number, number>();
  for (const t of lexicalTerms(text)) m.set(termHash(salt, t), (m.get(termHash(salt, t)) ?? 0) + 1);
  return m;
}

/** The builder as it was (hash-keyed maps), for comparison. */
function referenceBuild(salt: number, texts: readonly string[]): LexicalData {
  const docs = texts.map((t) => {
    const tf = referenceCounts(salt, t);
    return { terms: Uint32Array.from(tf.keys()), counts: Uint16Array.from(tf.values(), (c) => Math.min(c, 65535)) };
  });
  const df = new Map<number, number>();
  for (const d of docs) for (const h of d.terms) df.set(h, (df.get(h) ?? 0) + 1);
  const n = docs.length;
  const terms = Uint32Array.from(df.keys()).sort();
  const index = new Map<number, number>();
  terms.forEach((h, t) => index.set(h, t));
  const idf = Float32Array.from(terms, (h) => Math.log((1 + n) / (1 + df.get(h)!)) + 1);
  const offsets = new Uint32Array(terms.length + 1);
  for (const h of terms) offsets[index.get(h)! + 1] = df.get(h)!;
  for (let t = 0; t < terms.length; t++) offsets[t + 1]! += offsets[t]!;
  const fill = offsets.slice(0, terms.length);
  const postingRows = new Uint32Array(offsets[terms.length]!);
  const postingWeights = new Float32Array(postingRows.length);
  docs.forEach((doc, row) => {
    const w = Array.from(doc.terms, (h, i) => (1 + Math.log(doc.counts[i]!)) * idf[index.get(h)!]!);
    const norm = Math.sqrt(w.reduce((a, x) => a + x * x, 0)) || 1;
    doc.terms.forEach((h, i) => {
      const p = fill[index.get(h)!]!++;
      postingRows[p] = row;
      postingWeights[p] = w[i]! / norm;
    });
  });
  return { salt, rows: n, terms, idf, offsets, postingRows, postingWeights };
}

const TRICKY = [
  '', 'a', 'I am a b c', 'Fever 38.5 C... cough; cough COUGH', 'Café naïve résumé — déjà vu', 'x.y.z ..dots.. 1.2.3',
  'the of and', 'pain pain pain pain', `${'word '.repeat(70000)}end`, 'Ünïcödé then ascii words after it',
];

async function sampleTexts(n: number): Promise<string[]> {
  const out: string[] = [];
  for await (const r of new DdxplusSource('datasets/ddxplus', { strict: false }).records()) if (out.push(r.text) >= n) break;
  return out;
}

describe('kg-build lexical index builder', () => {
  // The sample's first 500 record texts, read once (issue 49: the stories read them four times).
  let sample: string[];
  before(async () => {
    sample = await sampleTexts(500);
  });

  it('termCounts hashes the same terms, in the same order, as termHash over lexicalTerms', () => {
    for (const salt of [0, 12345, 2 ** 32 - 1]) {
      for (const t of [...TRICKY, ...sample.slice(0, 200)]) assert.deepEqual([...termCounts(salt, t)], [...referenceCounts(salt, t)], t.slice(0, 60));
    }
  });

  it('builds exactly what the map-keyed builder built', () => {
    const texts = [...sample, ...TRICKY];
    const b = new LexicalIndexBuilder({ salt: 777 });
    for (const t of texts) b.add(t);
    const got = b.finish();
    const want = referenceBuild(777, texts);
    for (const k of ['terms', 'idf', 'offsets', 'postingRows', 'postingWeights'] as const) assert.deepEqual(got[k], want[k], k);
    assert.equal(got.rows, want.rows);
    assert.equal(got.salt, 777);
  });
});
