import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LexicalIndexBuilder } from '../../kg-build/lexical-index.js';
import { LexicalIndex, lexicalTerms } from '../../src/query/lexical-index.js';
import { readLexicalIndex, writeLexicalIndex } from '../../src/query/lexical-index-file.js';
import { ArtifactError } from '../../src/errors.js';
import { retrieveRecords, type RecordRow } from '../../src/query/retrieve-records.js';
import type { VectorIndexLike } from '../../src/adapters/faiss/types.js';

const NOTES = [
  'cough and fever for three days, sputum yellow',
  'cough for two days, sore throat, fever',
  'drooling, cannot swallow saliva, fever and muffled voice',
  'burning pain in the stomach after meals, sour taste',
];

function built(texts = NOTES, salt = 7): LexicalIndex {
  const b = new LexicalIndexBuilder({ salt });
  for (const t of texts) b.add(t);
  return new LexicalIndex(b.finish());
}

describe('lexical record index (TF-IDF, records.lexical.bin)', () => {
  it('finds a record by its rare words, not by the words every record shares', () => {
    const hits = built().search('fever and drooling', 4);
    assert.equal(hits[0]!.row, 2, '"drooling" is in one record; "fever" in three');
    assert.ok(hits[0]!.score > hits[1]!.score);
    assert.ok(hits.every((h) => h.score > 0 && h.score <= 1 + 1e-6), 'cosines');
  });

  it('returns at most k hits, none for words no record has, none for k = 0', () => {
    const index = built();
    assert.equal(index.search('cough', 1).length, 1);
    assert.deepEqual(index.search('photophobia', 3), []);
    assert.deepEqual(index.search('cough', 0), []);
  });

  it('an identical text is its own best match with cosine 1', () => {
    const [hit] = built().search(NOTES[3]!, 1);
    assert.equal(hit!.row, 3);
    assert.ok(Math.abs(hit!.score - 1) < 1e-5);
  });

  it('keeps no words: the file holds salted hashes, and another salt gives other hashes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexical-'));
    const a = new LexicalIndexBuilder({ salt: 1 });
    const b = new LexicalIndexBuilder({ salt: 2 });
    for (const t of NOTES) (a.add(t), b.add(t));
    const [da, db] = [a.finish(), b.finish()];
    assert.notDeepEqual([...da.terms], [...db.terms]);
    const path = join(dir, 'records.lexical.bin');
    return writeLexicalIndex(path, da).then(() => {
      const bytes = readFileSync(path);
      for (const word of ['drooling', 'saliva', 'cough']) assert.equal(bytes.includes(Buffer.from(word)), false, word);
    });
  });

  it('round-trips through its file and searches the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexical-'));
    const b = new LexicalIndexBuilder({ salt: 99 });
    for (const t of NOTES) b.add(t);
    const data = b.finish();
    const path = join(dir, 'records.lexical.bin');
    await writeLexicalIndex(path, data);
    const back = new LexicalIndex(await readLexicalIndex(path, NOTES.length));
    assert.deepEqual(back.search('sour taste after meals', 2), new LexicalIndex(data).search('sour taste after meals', 2));
  });

  it('refuses a truncated file, another file, and a row count the manifest does not say, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexical-'));
    const b = new LexicalIndexBuilder({ salt: 3 });
    for (const t of NOTES) b.add(t);
    const path = join(dir, 'records.lexical.bin');
    await writeLexicalIndex(path, b.finish());
    await assert.rejects(readLexicalIndex(path, 5), (e: unknown) => e instanceof ArtifactError && /indexes 4 records, the manifest says 5/.test(e.message));
    writeFileSync(path, readFileSync(path).subarray(0, 40));
    await assert.rejects(readLexicalIndex(path, 4), (e: unknown) => e instanceof ArtifactError && e.message.includes(path));
    writeFileSync(path, Buffer.alloc(64));
    await assert.rejects(readLexicalIndex(path, 4), /not a version 1 lexical index/);
    await assert.rejects(readLexicalIndex(join(dir, 'missing.bin'), 4), /missing or unreadable/);
  });

  it('reads words of two letters or more and their bigrams, without stopwords', () => {
    assert.deepEqual(lexicalTerms('Pain in the RLQ, x 2 days'), ['pain', 'rlq', 'days', 'pain rlq', 'rlq days']);
  });
});

describe('record retrieval by meaning, by words or both', () => {
  const rows: RecordRow[] = NOTES.map((text, i) => ({ id: `r${i}`, diagnosis: `d${i}`, diseaseId: `dis:${i}`, text }));
  const records = new Map(rows.map((r) => [r.id, r]));
  // A dense index that always answers r0 then r1 (what a meaning-only embedding might say).
  const dense: VectorIndexLike = { dim: 2, size: 4, search: (_v: Float32Array, k: number) => [{ id: 'r0', score: 0.9 }, { id: 'r1', score: 0.8 }].slice(0, k) } as unknown as VectorIndexLike;
  const embedder = { id: 'fake', embeddings: { embedDocuments: async (t: string[]) => t.map(() => [1, 0]) } };
  const lexical = { index: built(), ids: rows.map((r) => r.id), fromNotes: true };
  const ask = (recordRetrieval: 'auto' | 'dense' | 'lexical' | 'hybrid' | 'none', withLexical = true, fromText = true, fromNotes = true) =>
    retrieveRecords({ embedder, recordIndex: dense, records, ...(withLexical ? { lexical: { ...lexical, fromNotes } } : {}), recordRetrieval }, { text: 'drooling and muffled voice', topK: 2, fromText }).then((r) => r.map((x) => x.id));

  it('lexical: the record that shares the rare words', async () => assert.deepEqual(await ask('lexical'), ['r2']));
  it('dense: the vector index alone', async () => assert.deepEqual(await ask('dense'), ['r0', 'r1']));
  it('hybrid: both lists, each scaled by its best, so the lexical best ranks with the dense best', async () => {
    const ids = await ask('hybrid');
    assert.equal(ids.length, 2);
    assert.ok(ids.includes('r2') && ids.includes('r0'), ids.join());
  });
  it('auto: by words for a written description of a notes build, by meaning for coded findings or coded records', async () => {
    assert.deepEqual(await ask('auto', true, true), ['r2']);
    assert.deepEqual(await ask('auto', true, false), ['r0', 'r1'], 'coded findings joined');
    assert.deepEqual(await ask('auto', true, true, false), ['r0', 'r1'], 'no record was read from notes');
  });
  it('none: nothing, with or without a lexical index', async () => {
    assert.deepEqual(await ask('none'), []);
    assert.deepEqual(await ask('none', false), []);
  });
  it('a build without a lexical index retrieves by meaning whatever is configured', async () => assert.deepEqual(await ask('lexical', false), ['r0', 'r1']));
});
