import assert from 'node:assert/strict';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { recordChunks } from '../../src/gate/chunk-index.js';
import { segmentSentences } from '../../src/gate/segment-sentences.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';
import { distinctChunks, embedDistinctChunks, lineMemoSegmenter, MEMBERS_PER_TEXT } from '../../kg-build/distinct-chunks.js';
import { embedAll, embedUnit, toUnit } from '../../kg-build/vectors.js';

const TRICKY = [
  'HPI:\n- fever 38.2 C; cough\n1. chest pain 2. dyspnea\r\nTakes aspirin b.i.d. Then sleeps.',
  'Dr. Smith saw the pt. Temp. 39 C! Cough? yes\u2028Nausea... vomiting\u2029\u2029(3) rash',
  'no newline at all; two clauses',
  '',
  'fever\nfever\n\nfever', // one record holding the same text three times
];

async function sampleRecords(n: number): Promise<{ id: string; text: string }[]> {
  const source = new DdxplusSource('datasets/ddxplus', { strict: false });
  const out: { id: string; text: string }[] = [];
  try {
    for await (const r of source.records()) if (out.push({ id: r.id, text: r.text }) >= n) break;
  } finally {
    await source.close();
  }
  return out;
}

const bits = (v: Float32Array) => Array.from(new Uint32Array(v.buffer, v.byteOffset, v.length));

describe('kg-build: distinct chunks (shared by the chunk index and the gate probe)', () => {
  it('the per-line memo segments exactly as segmentSentences', () => {
    const segment = lineMemoSegmenter();
    for (const t of [...TRICKY, ...TRICKY]) assert.deepEqual(segment(t), segmentSentences(t));
  });

  it('groups every chunk of recordChunks by text, in first-seen order, with its record', async () => {
    const records = [...(await sampleRecords(120)), ...TRICKY.map((text, i) => ({ id: `t:${i}`, text }))];
    const d = distinctChunks(records);
    const expected = new Map<string, { ids: string[]; recs: string[] }>();
    let count = 0;
    for (const r of records) {
      for (const c of recordChunks(r)) {
        const g = expected.get(c.text) ?? { ids: [], recs: [] };
        g.ids.push(c.id);
        g.recs.push(c.recordId);
        expected.set(c.text, g);
        count++;
      }
    }
    assert.equal(d.chunkCount, count);
    assert.deepEqual(d.texts, [...expected.keys()]);
    assert.deepEqual(d.members, [...expected.values()].map((g) => g.ids));
    assert.deepEqual(d.holders, [...expected.values()].map((g) => g.recs));
    assert.ok(d.texts.length < count / 2, 'renderings repeat lines');
    assert.deepEqual(d.members[d.texts.indexOf('fever')], ['t:4#0', 't:4#1', 't:4#2']);
  });

  it('keeps the first membersPerText chunks of a text, counts them all, and top-m searches up to the cap answer the same', async () => {
    const records = [...(await sampleRecords(60)), ...TRICKY.map((text, i) => ({ id: `t:${i}`, text }))];
    const full = distinctChunks(records, Infinity);
    const cap = 3;
    const capped = distinctChunks(records, cap);
    assert.equal(capped.chunkCount, full.chunkCount);
    assert.equal(capped.membersPerText, cap);
    assert.deepEqual(capped.texts, full.texts);
    assert.deepEqual(capped.members, full.members.map((m) => m.slice(0, cap)));
    assert.deepEqual(capped.holders, full.holders.map((h) => h.slice(0, cap)));
    assert.ok(full.members.some((m) => m.length > cap), 'some text is held by more chunks than the cap');
    // The query side expands ranked texts into chunks until m (src/query/distinct-chunk-index.ts).
    const expand = (members: string[][], m: number) => members.flat().slice(0, m);
    for (const m of [1, 2, 3]) assert.deepEqual(expand(capped.members.slice(0, 1), m), expand(full.members.slice(0, 1), m));
    assert.equal(distinctChunks(records).membersPerText, MEMBERS_PER_TEXT);
  });

  it('embeds each distinct text once, bit-identical to the number[] path', async () => {
    const embedder = new HashedEmbedder({ dim: 64 });
    const e = await embedDistinctChunks(await sampleRecords(30), embedder);
    assert.equal(e.vectors.length, e.texts.length);
    const slow = (await embedder.embedDocuments(e.texts)).map(toUnit);
    e.vectors.forEach((v, i) => assert.deepEqual(bits(v), bits(slow[i]!)));
    // embedUnit / embedAll take the Float32Array path only when the embedder offers it.
    const plain = { embedDocuments: (t: string[]) => embedder.embedDocuments(t) } as unknown as HashedEmbedder;
    assert.deepEqual((await embedUnit(plain, e.texts.slice(0, 5))).map(bits), slow.slice(0, 5).map(bits));
    assert.deepEqual((await embedAll(embedder, e.texts, { batchSize: 7 })).map(bits), slow.map(bits));
  });
});
