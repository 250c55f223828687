import { defaultNlist, trainSampleSize } from '../../src/adapters/faiss/vector-index.js';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { buildDir, currentPointer } from '../../src/domain/artifacts.js';
import { buildIndexes, setCurrent, type IndexFactory, type WritableIndex } from '../../kg-build/build-indexes.js';
import { paramsFromFlags, shareOrNone } from '../../src/cli/build-command.js';

/** Records what the stage asks of the index: kinds, rows, files written. */
function fakeFactory(log: { kind: string; ids: string[]; saved: string[] }[]): IndexFactory {
  return {
    create({ kind }) {
      const entry = { kind, ids: [] as string[], saved: [] as string[] };
      log.push(entry);
      const index: WritableIndex = {
        get size() {
          return entry.ids.length;
        },
        add(ids) {
          entry.ids.push(...ids);
        },
        async save(indexPath, idsPath) {
          writeFileSync(indexPath, 'x');
          writeFileSync(idsPath, JSON.stringify(entry.ids));
          entry.saved.push(indexPath, idsPath);
        },
      };
      return index;
    },
  };
}

function spool(dir: string, n: number): string {
  const p = join(dir, 'spool.jsonl');
  const rows = Array.from({ length: n }, (_, i) => JSON.stringify({ id: `r${i}`, diagnosis: i % 2 ? 'Flu' : 'Cold', text: `patient ${i} cough`, features: [] }));
  rows.push(JSON.stringify({ id: 'orphan', diagnosis: 'Unknown', text: 'x', features: [] }));
  writeFileSync(p, rows.join('\n') + '\n');
  return p;
}

describe('kg-build build-indexes (artifacts)', () => {
  const embeddings = new HashedEmbedder({ dim: 32 });
  const base = (dataDir: string, n: number, log: Parameters<typeof fakeFactory>[0]) => ({
    dataDir, buildId: 'kg-test', source: 'memory:test', embedderId: 'hashed-ngram-v1:32', embeddings, factory: fakeFactory(log),
    spoolPath: spool(dataDir, n), recordCount: n, diseaseOf: new Map([['Flu', 'dis:flu'], ['Cold', 'dis:cold']]),
    features: [{ id: 'feat:1', text: 'cough', kind: 'ehr' as const, code: null, valueCode: null, question: null, valueText: null, antecedent: null }],
  });

  it('flags the rows read from notes (`notes: true`, what disease profiles are made of) and counts them in the manifest', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kg-idx-'));
    const input = base(dataDir, 4, []);
    const rows = [0, 1, 2, 3].map((i) => JSON.stringify({ id: `r${i}`, diagnosis: i % 2 ? 'Flu' : 'Cold', text: `finding ${i}`, features: [], ...(i < 2 ? { embed: `scrubbed note ${i}` } : {}) }));
    writeFileSync(input.spoolPath, rows.join('\n') + '\n');
    const m = await buildIndexes(input, { embedBatch: 64 });
    const written = readFileSync(join(buildDir(dataDir, 'kg-test'), 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(written.map((r) => r.notes ?? false), [true, true, false, false]);
    assert.equal(m.lexicalIndex?.noteRecords, 2);
  });

  it('writes rows in index order, a flat record index below the threshold, the feature index and the manifest', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kg-idx-'));
    const log: { kind: string; ids: string[]; saved: string[] }[] = [];
    const m = await buildIndexes(base(dataDir, 300, log), { embedBatch: 64 });
    const dir = buildDir(dataDir, 'kg-test');
    const rows = readFileSync(join(dir, 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(rows.map((r) => r.id), log[0]!.ids, 'rows follow index order');
    assert.equal(rows.length, 300, 'a record whose diagnosis is in no disease is left out');
    assert.equal(rows[1].diseaseId, 'dis:flu');
    assert.equal(m.recordIndex.kind, 'flat');
    assert.deepEqual({ rows: m.lexicalIndex?.rows, file: m.lexicalIndex?.file, notes: m.lexicalIndex?.noteRecords }, { rows: 300, file: 'records.lexical.bin', notes: 0 }, 'the lexical index holds the same rows');
    assert.ok(existsSync(join(dir, 'records.lexical.bin')));
    assert.equal(m.embeddingDim, 32);
    assert.equal(m.embedder, 'hashed-ngram-v1:32');
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), m);
    assert.deepEqual(log[1], { kind: 'flat', ids: ['feat:1'], saved: [join(`${dir}.tmp-${process.pid}`, 'features.faiss'), join(`${dir}.tmp-${process.pid}`, 'features.ids.json')] });
    assert.ok(!existsSync(`${dir}.tmp-${process.pid}`), 'temp dir renamed into place');
    assert.ok(!existsSync(currentPointer(dataDir)), 'the pipeline, not this stage, switches current');
    await setCurrent(dataDir, 'kg-test');
    assert.equal(readFileSync(currentPointer(dataDir), 'utf8').trim(), 'kg-test');
  });

  it('flat below flatBelow, then IVF (trained first on a sample spread over the whole input), or HNSW when asked', async () => {
    // Each row's vector is (1, its patient number), unit: the number is read back as v[1] / v[0].
    const patient = (v: Float32Array) => Math.round(v[1]! / v[0]!);
    const made: { kind: string; nlist: number | undefined; trained: number[]; adds: number[]; added: number[] }[] = [];
    const factory: IndexFactory = {
      create({ kind, nlist }) {
        const e = { kind, nlist, trained: [] as number[], adds: [] as number[], added: [] as number[] };
        made.push(e);
        let size = 0;
        return {
          get size() { return size; },
          train: (v) => { e.trained.push(...v.map(patient)); },
          add: (ids, v) => { e.adds.push(ids.length); size += ids.length; e.added.push(...v.map(patient)); },
          save: async () => {},
        };
      },
    };
    const texts: string[] = [];
    const embeddings = { embedDocuments: async (t: string[]) => (texts.push(...t), t.map((x) => [1, Number(/patient (\d+)/.exec(x)?.[1] ?? 0)])) } as unknown as HashedEmbedder;
    const run = async (n: number, opts: { flatBelow: number; approximate?: 'ivf' | 'hnsw' }) => {
      made.length = 0;
      texts.length = 0;
      const dataDir = mkdtempSync(join(tmpdir(), 'kg-idx-'));
      const m = await buildIndexes({ ...base(dataDir, n, []), embeddings, factory }, { ...opts, embedBatch: 16 });
      return { kind: m.recordIndex.kind, records: made[0]! };
    };
    const flat = await run(120, { flatBelow: 200 });
    assert.equal(flat.kind, 'flat');
    assert.equal(flat.records.trained.length, 0);
    const n = 10_000;
    const ivf = await run(n, { flatBelow: 100 });
    assert.equal(ivf.kind, 'ivf');
    assert.equal(ivf.records.nlist, defaultNlist(n), 'lists sized for the whole record count');
    const sample = trainSampleSize(defaultNlist(n));
    assert.ok(sample < n, 'the test needs a real sample');
    assert.equal(ivf.records.trained.length, sample, `trained on ${sample} rows`);
    const sampled = ivf.records.trained;
    assert.ok(sampled[0]! < n / 10 && sampled.at(-1)! > n - n / 10, 'spread from the start to the end of the input');
    assert.ok(sampled.every((p, i) => i === 0 || p > sampled[i - 1]!), 'each sampled row once, in input order');
    assert.equal(texts.length, n + 1, 'every record embedded once (the sample is not embedded again), then the one feature');
    assert.deepEqual(ivf.records.adds, [n], 'then every row from the staged vectors, in one large batch');
    assert.deepEqual(ivf.records.added, Array.from({ length: n }, (_, i) => i), 'each row its own vector, in input order');
    const hnsw = await run(120, { flatBelow: 50, approximate: 'hnsw' });
    assert.equal(hnsw.kind, 'hnsw');
    assert.equal(hnsw.records.trained.length, 0);
    assert.deepEqual(hnsw.records.adds, [16, 16, 16, 16, 16, 16, 16, 8], 'plain batches');
  });
});

describe('dxgraph build flags', () => {
  const flags = { source: ['ddxplus:x'], hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000 };
  it('map to build params', () => {
    const p = paramsFromFlags({ ...flags, hierarchy: 'icd10', subcategories: '12', testFraction: 0.2, seed: 7, recordsInGraph: true });
    assert.equal(p.hierarchy, 'icd10');
    assert.deepEqual(p.sizes, { subcategories: 12, categories: 'auto' });
    assert.deepEqual(p.split, { testFraction: 0.2, seed: 7 });
    assert.equal(p.recordsInGraph, true);
    assert.deepEqual(p.decompose, {});
    assert.deepEqual(paramsFromFlags({ ...flags, minPatients: 3, minNoteSupport: 1 }).decompose, { emergent: { minPatients: 3 }, minNoteSupport: 1 });
    assert.deepEqual(paramsFromFlags({ ...flags, maxNoteFeatureShare: Infinity }).decompose, { maxNoteFeatureShare: Infinity });
  });
  it('--max-note-feature-share: a positive number, or none for no budget', () => {
    const parse = shareOrNone('max-note-feature-share');
    assert.equal(parse('0.3'), 0.3);
    assert.equal(parse('none'), Infinity);
    assert.throws(() => parse('0'), /--max-note-feature-share must be a positive number or 'none', got '0'/);
    assert.throws(() => parse('half'), /--max-note-feature-share must be a number, got 'half'/);
  });
  it('reject bad combinations naming the flag', () => {
    assert.throws(() => paramsFromFlags({ ...flags, hierarchy: 'kmeans' }), /--hierarchy must be one of/);
    assert.throws(() => paramsFromFlags({ ...flags, testFraction: 0.2 }), /--test-fraction and --seed go together/);
    assert.throws(() => paramsFromFlags({ ...flags, subcategories: 'many' }), /--subcategories must be an integer/);
  });
});
