import type { Embeddings } from '@langchain/core/embeddings';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import type { IndexKind } from '../src/adapters/faiss/types.js';
import { buildDir, currentPointer, type BuildManifest } from '../src/domain/artifacts.js';
import type { FeatureNode } from '../src/domain/kg.js';
import { readSpool } from './scan-records.js';
import { LexicalIndexBuilder } from './lexical-index.js';
import { writeLexicalIndex } from '../src/query/lexical-index-file.js';
import { embedUnit } from './vectors.js';
import { chooseIndexKind, defaultNlist, trainSampleSize } from '../src/adapters/faiss/vector-index.js';
import { StagedVectors, stridedRows } from './staged-vectors.js';
import { batchEmbedder } from './embed-off-thread.js';

/** Rows per add of staged vectors: big batches keep FAISS's BLAS assignment busy (65k rows = 128 MB). */
const ADD_BATCH = 65_536;

/**
 * Stage 7: the on-disk side of a build (src/domain/artifacts.ts): FAISS index of the
 * training records' embeddings + rows jsonl, their lexical (TF-IDF) index, flat FAISS index of feature embeddings +
 * ids, manifest.json. Files are written into a temp dir that replaces the build dir in
 * one rename; the pipeline switches the `current` pointer (setCurrent, temp file +
 * rename) only after the Neo4j load completed, so a server never sees a half-written build.
 */
export interface WritableIndex {
  readonly size: number;
  /** IVF: k-means on a sample before the first add (absent: the first add trains on itself). */
  train?(vectors: readonly Float32Array[]): void;
  add(ids: readonly string[], vectors: readonly Float32Array[]): void;
  save(indexPath: string, idsPath: string): Promise<void>;
}

export interface IndexFactory {
  create(opts: { kind: IndexKind; dim: number; nlist?: number }): WritableIndex;
}

export interface IndexOptions {
  /** Exact flat index below this many records. */
  flatBelow: number;
  /** The approximate index from `flatBelow` on: IVF (default) or an HNSW graph. */
  approximate: 'ivf' | 'hnsw';
  embedBatch: number;
}

/**
 * Why IVF: with Debian's generic libfaiss, HNSW insertion is bound by un-vectorised 512-d
 * distance computations (100k records: ~90 s on 2 cores, recall@10 0.98, 0.8 ms per query;
 * 1M: 27 min, and recall@10 stalls at 0.92), while IVF trains by k-means on BLAS and adds by
 * one BLAS assignment per batch (100k: ~5 s, recall@10 0.99, 1.9 ms per query). From 500k
 * records IVF gets many small lists behind an HNSW quantizer (vector-index.ts defaultNlist;
 * docs/benchmarks.md).
 *
 * Why flat only below 2,000 (issue 29, measured: `npm run bench -- --sizes '' --faiss-only
 * 1000,2000,5000,10000,20000,50000 --faiss-only-kinds flat,ivf`, fresh search process): IVF
 * searched faster at every size from 1,000 (flat / IVF p50 0.41 / 0.13 ms at 1k, 4.0 / 0.35 at
 * 10k, 20.0 / 0.65 at 50k) at recall@10 0.996-1.0; the old 50k threshold made a 10k build
 * slower to query than a 100k one. Below 2,000 the gain is under 0.7 ms and exact search keeps
 * small builds (the shipped DDXPlus sample, 1,567 records) exact.
 */
export const DEFAULT_INDEX_OPTIONS: IndexOptions = { flatBelow: 2_000, approximate: 'ivf', embedBatch: 256 };

export interface IndexInput {
  dataDir: string;
  buildId: string;
  source: string;
  embedderId: string;
  embeddings: Embeddings;
  factory: IndexFactory;
  spoolPath: string;
  recordCount: number;
  diseaseOf: ReadonlyMap<string, string>;
  features: readonly FeatureNode[];
  onRecords?: (done: number) => void;
}

export async function buildIndexes(input: IndexInput, options: Partial<IndexOptions> = {}): Promise<BuildManifest> {
  const opts = { ...DEFAULT_INDEX_OPTIONS, ...options };
  const finalDir = buildDir(input.dataDir, input.buildId);
  const tmpDir = `${finalDir}.tmp-${process.pid}`;
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(tmpDir, { recursive: true });

  const kind: IndexKind = chooseIndexKind(input.recordCount, opts);
  // IVF trains (k-means) before its first add, on a sample spread evenly over the whole input
  // (trainSampleSize: a few dozen rows per list): a source sorted by diagnosis must not give
  // lists trained on its first diseases only. So its rows are embedded once, in the one pass
  // over the spool, into a temporary vector file; the sample is read back from it, then every
  // row is added from it in large batches. (A first pass embedding the sample used to re-read the
  // spool and embed the sample twice: at 1M records 250k extra embeddings and a 1.2 GB re-read.)
  const nlist = kind === 'ivf' ? defaultNlist(input.recordCount) : null;
  const staged = nlist === null ? null : new StagedVectors(join(tmpDir, 'records.vectors.tmp'));
  const rows = createWriteStream(join(tmpDir, 'records.jsonl'), { encoding: 'utf8' });
  let records: WritableIndex | null = null;
  let dim = 0;
  let batch: { id: string; diagnosis: string; diseaseId: string; text: string; summary: string; embed: string; fromNotes: boolean }[] = [];
  let noteRecords = 0;
  let done = 0;
  // The lexical index holds the same rows in the same order (records.jsonl), so a hit's row is the record's.
  const lexical = new LexicalIndexBuilder();
  // One batch is embedded (on a worker thread for the offline embedder, embed-off-thread.ts)
  // while the one before it is written: rows, lexical terms, vectors.
  const embedder = batchEmbedder(input.embeddings, input.recordCount);
  type Row = (typeof batch)[number];
  let inFlight: { rows: Row[]; vectors: Promise<Float32Array[]> } | null = null;
  const write = async (written: Row[], vecs: Float32Array[]) => {
    dim ||= vecs[0]!.length;
    if (staged) await staged.write(written.map((r) => r.id), vecs);
    else (records ??= input.factory.create({ kind, dim })).add(written.map((r) => r.id), vecs);
    for (const r of written) lexical.add(r.embed);
    noteRecords += written.filter((r) => r.fromNotes).length;
    // `notes`: the row was read from a note (disease profiles are the notes' words, src/query/disease-profiles.ts).
    for (const { embed: _embed, fromNotes, ...r } of written) if (!rows.write(JSON.stringify(fromNotes ? { ...r, notes: true } : r) + '\n')) await once(rows, 'drain');
    done += written.length;
    input.onRecords?.(done);
  };
  const flush = async () => {
    const next = batch.length === 0 ? null : { rows: batch, vectors: embedder.embed(batch.map((r) => r.embed)) };
    // A rejected embedding is awaited below (or by the final flush); never left unhandled meanwhile.
    next?.vectors.catch(() => {});
    batch = [];
    if (inFlight) await write(inFlight.rows, await inFlight.vectors);
    inFlight = next;
  };
  try {
    try {
      for await (const row of readSpool(input.spoolPath)) {
        const diseaseId = input.diseaseOf.get(row.diagnosis);
        if (diseaseId === undefined) continue;
        batch.push({ id: row.id, diagnosis: row.diagnosis, diseaseId, text: row.text, summary: row.summary, embed: row.embed ?? row.text, fromNotes: row.embed !== undefined });
        if (batch.length >= opts.embedBatch) await flush();
      }
      await flush();
      await flush(); // the last batch in flight
    } finally {
      await embedder.close(); // first: a live worker thread would keep the process from exiting
      rows.end();
      await once(rows, 'close');
    }
    if (staged && staged.size > 0) {
      await staged.close();
      records = input.factory.create({ kind, dim, nlist: nlist! });
      records.train?.(await staged.rowsAt(stridedRows(staged.size, Math.min(staged.size, trainSampleSize(nlist!)))));
      for await (const chunk of staged.chunks(ADD_BATCH)) records.add(chunk.ids, chunk.vectors);
    }
  } finally {
    await staged?.remove();
  }
  const featureVecs = await embedUnit(input.embeddings, input.features.map((f) => f.text));
  dim ||= featureVecs[0]?.length ?? 0;
  const features = input.factory.create({ kind: 'flat', dim });
  features.add(input.features.map((f) => f.id), featureVecs);
  const recordIndex = records ?? input.factory.create({ kind: 'flat', dim });
  await recordIndex.save(join(tmpDir, 'records.faiss'), join(tmpDir, 'records.ids.json'));
  await features.save(join(tmpDir, 'features.faiss'), join(tmpDir, 'features.ids.json'));
  const lexicalData = lexical.finish();
  await writeLexicalIndex(join(tmpDir, 'records.lexical.bin'), lexicalData);

  const manifest: BuildManifest = {
    buildId: input.buildId,
    source: input.source,
    embedder: input.embedderId,
    embeddingDim: dim,
    recordIndex: { kind, size: recordIndex.size, file: 'records.faiss', rows: 'records.jsonl' },
    featureIndex: { size: features.size, file: 'features.faiss', ids: 'features.ids.json' },
    recordIdsFile: 'records.ids.json',
    lexicalIndex: { file: 'records.lexical.bin', rows: lexicalData.rows, terms: lexicalData.terms.length, noteRecords },
    createdAt: new Date().toISOString(),
  };
  await writeFile(join(tmpDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await rm(finalDir, { recursive: true, force: true });
  await rename(tmpDir, finalDir);
  return manifest;
}

/** Atomically points `<dataDir>/current` at a build. */
export async function setCurrent(dataDir: string, buildId: string): Promise<void> {
  const path = currentPointer(dataDir);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, `${buildId}\n`);
  await rename(tmp, path);
}
