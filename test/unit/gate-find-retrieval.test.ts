import { strict as assert } from 'node:assert';
import { chunkIndexFromVectors, recordChunks, recordIdOfChunk } from '../../src/gate/chunk-index.js';
import { findRetrieve } from '../../src/gate/find-retrieval.js';
import { createChunkRetrievalProbe } from '../../src/gate/retrieval-probe.js';
import type { VectorIndexLike } from '../../src/adapters/faiss/types.js';
import { hit, LookupEmbedder, PresetChunkIndex } from './gate-support.js';

const SENTENCES = ['fever 39', 'productive cough', 'likes gardening', 'crackles right base'];
const vocab = [...SENTENCES];

describe('gate: FIND retrieval (3.3.1)', () => {
  const hits = {
    'fever 39': [hit('r1', 0, 0.9), hit('r2', 0, 0.8), hit('r3', 0, 0.55)],
    'productive cough': [hit('r2', 1, 0.7), hit('r1', 3, 0.6), hit('r3', 1, 0.95)],
    'likes gardening': [hit('r4', 0, 0.99), hit('r4', 1, 0.98), hit('r4', 2, 0.97)],
    'crackles right base': [hit('r2', 2, 0.85), hit('r3', 4, 0.4), hit('r5', 0, 0.3)],
  };

  it('queries only A/B sentences and re-ranks records by retrieved chunk count, ties by best similarity', async () => {
    const index = new PresetChunkIndex(vocab, hits);
    const labelled = SENTENCES.map((text, i) => ({ text, label: (['A', 'B', 'C', 'A'] as const)[i]! }));
    const r = await findRetrieve(labelled, { embedder: new LookupEmbedder(vocab), chunkIndex: index }, { topM: 3, topK: 3, minSimilarity: 0.5 });
    assert.deepEqual(index.calls, [{ texts: ['fever 39', 'productive cough', 'crackles right base'], m: 3 }]);
    // r2: 3 chunks; r1 and r3: 2 each (r3's 0.4 chunk is below 0.5) → tie broken by best similarity (r3 0.95 > r1 0.9).
    // r4 (only from the C sentence) and r5 (below threshold) never appear.
    assert.deepEqual(r.records.map((x) => [x.recordId, x.chunkCount, x.bestSimilarity]), [
      ['r2', 3, 0.85],
      ['r3', 2, 0.95],
      ['r1', 2, 0.9],
    ]);
    assert.deepEqual(r.records[0]!.sentenceIndices, [0, 1, 3]);
    assert.equal(r.queriedSentences, 3);
    assert.equal(r.usedFallback, false);
  });

  it('keeps top-k only', async () => {
    const labelled = SENTENCES.map((text) => ({ text, label: 'A' as const }));
    const r = await findRetrieve(labelled, { embedder: new LookupEmbedder(vocab), chunkIndex: new PresetChunkIndex(vocab, hits) }, { topM: 3, topK: 2, minSimilarity: 0 });
    // With every sentence querying and no threshold, r2, r3 and r4 all reach 3 chunks: best similarity decides.
    assert.deepEqual(r.records.map((x) => [x.recordId, x.chunkCount]), [['r4', 3], ['r3', 3]]);
  });

  it('falls back to all sentences when none is A or B, unless told not to', async () => {
    const labelled = [{ text: 'likes gardening', label: 'C' as const }];
    const services = { embedder: new LookupEmbedder(vocab), chunkIndex: new PresetChunkIndex(vocab, hits) };
    const fb = await findRetrieve(labelled, services, { topM: 3, topK: 5 });
    assert.deepEqual([fb.usedFallback, fb.records.map((x) => x.chunkCount)], [true, [3]]);
    const none = await findRetrieve(labelled, services, { fallbackToAllSentences: false });
    assert.deepEqual(none, { records: [], queriedSentences: 0, usedFallback: false });
  });
});

describe('gate: record chunks and the chunk-index adapter', () => {
  it('splits a record into its findings with stable <recordId>#<n> ids', () => {
    const chunks = recordChunks({ id: 'ddxplus:dev:7', text: 'age: 45\nsex: male\nFever: yes' });
    assert.deepEqual(chunks.map((c) => c.id), ['ddxplus:dev:7#0', 'ddxplus:dev:7#1', 'ddxplus:dev:7#2']);
    assert.equal(chunks[2]!.text, 'Fever: yes');
    assert.equal(recordIdOfChunk('a#b#12'), 'a#b');
  });

  it('maps vector hits back to records', () => {
    const fake: VectorIndexLike = {
      dim: 1, size: 2, kind: 'flat',
      search: () => [],
      searchMany: (qs, k) => qs.map(() => [{ id: 'rec:9#4', score: 0.7 }].slice(0, k)),
    };
    assert.deepEqual(chunkIndexFromVectors(fake).searchMany([new Float32Array(1)], 5), [[{ chunkId: 'rec:9#4', recordId: 'rec:9', similarity: 0.7 }]]);
  });
});

describe('gate: chunk retrieval probe', () => {
  const disease: Record<string, string> = { self: 'flu', r1: 'flu', r2: 'cold' };
  const probeFor = (h: Record<string, ReturnType<typeof hit>[]>, topM: number) =>
    createChunkRetrievalProbe({ embedder: new LookupEmbedder(vocab), chunkIndex: new PresetChunkIndex(vocab, h), diseaseOfRecord: (id) => disease[id] ?? null }, { topM, minSimilarity: 0.5 });

  it('ignores the example’s own record, then looks for the gold disease in the top-m', async () => {
    const p = probeFor({ 'fever 39': [hit('self', 0, 0.99), hit('r2', 0, 0.9), hit('r1', 0, 0.8)] }, 2);
    assert.equal(await p.retrievesGold({ sentence: 'fever 39', goldDiseaseId: 'flu', excludeRecordId: 'self' }), true);
    assert.equal(await p.retrievesGold({ sentence: 'fever 39', goldDiseaseId: 'pe', excludeRecordId: 'self' }), false);
    const p1 = probeFor({ 'fever 39': [hit('self', 0, 0.99), hit('r2', 0, 0.9), hit('r1', 0, 0.8)] }, 1);
    assert.equal(await p1.retrievesGold({ sentence: 'fever 39', goldDiseaseId: 'flu', excludeRecordId: 'self' }), false, 'r1 is outside top-1 once self is removed');
  });

  it('needs the similarity threshold', async () => {
    const p = probeFor({ 'fever 39': [hit('r1', 0, 0.49)] }, 5);
    assert.equal(await p.retrievesGold({ sentence: 'fever 39', goldDiseaseId: 'flu', excludeRecordId: 'self' }), false);
  });
});
