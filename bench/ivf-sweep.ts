/**
 * IVF / factory-index sweep on the bench's cached record vectors (docs/benchmarks.md, "Many
 * small IVF lists behind an HNSW quantizer at 1M"): exact top-10 by IndexFlatIP, then per
 * FAISS factory string a build (k-means on PER rows per list, spread over the input), saved
 * once, and re-read with each nprobe patched into the file; recall@10 is tie-aware.
 * Needs `.dxgraph-bench/data/vectors/ddxplus-N.f32` (made by `npm run bench -- --faiss-only N`).
 *
 *   OMP_NUM_THREADS=2 N=1000000 PER=24 QEF=64 F='IVF8192_HNSW32,Flat' NP=12,16,24 npx tsx bench/ivf-sweep.ts
 *
 * QEF sets the HNSW quantizer's efSearch. Holds the raw vectors, the exact index and each
 * re-read index in one process: ~10-16 GB at 1M.
 */
import fs from 'node:fs';
import { HashedEmbedder } from '../src/adapters/embeddings/hashed-embedder.js';
import { queryPatients } from './lib/record-texts.js';
import { fromBuffer, patchIvfNprobe, patchIvfQuantizerHnsw, readIvfQuantizerHnsw } from '../src/adapters/faiss/index-params.js';
import { faiss } from '../src/adapters/faiss/native.js';

const N = Number(process.env.N ?? 1_000_000);
const dim = 512;
const factories = (process.env.F ?? 'IVF4096,Flat').split(';');
const nprobes = (process.env.NP ?? '8,16,32').split(',').map(Number);
const f32 = `.dxgraph-bench/data/vectors/ddxplus-${N}.f32`;
const buf = fs.readFileSync(f32);
const all = new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
const n = all.length / dim;
const embedder = new HashedEmbedder();
const qs = await queryPatients({ dir: '.dxgraph-bench/data/queries', count: 100, seed: 424242 });
const qv = (await embedder.embedDocuments(qs.map((q) => q.text))).map((v) => Float32Array.from(v));
const F = faiss();
const t0 = performance.now();
let flat: any = new F.IndexFlatIP(dim);
flat.add(all as any);
const qall = new Float32Array(qv.length * dim); qv.forEach((q, i) => qall.set(q, i * dim));
const gt = flat.search(qall as any, 10);
console.log('truth ms', Math.round(performance.now() - t0));
const kth = qv.map((_, i) => gt.distances[i * 10 + 9]!);
const truthSets = qv.map((_, i) => new Set(gt.labels.slice(i * 10, i * 10 + 10)));
// flat single-query timing
{ const t = performance.now(); for (const q of qv.slice(0, 10)) flat.search(q as any, 10); console.log('flat single q ms', ((performance.now() - t) / 10).toFixed(2)); }
flat = null;
for (const fac of factories) {
  const t1 = performance.now();
  let idx = F.Index.fromFactory(dim, fac, F.MetricType.METRIC_INNER_PRODUCT);
  if (fac.includes('_HNSW') && process.env.QEF) {
    const b = idx.toBuffer();
    patchIvfQuantizerHnsw(b, { efSearch: Number(process.env.QEF) });
    console.log('quantizer params', readIvfQuantizerHnsw(fromBuffer(b)));
    idx = F.Index.fromBuffer(b);
  }
  const nlist = Number(/IVF(\d+)/.exec(fac)?.[1] ?? 1);
  const per = Number(process.env.PER ?? 40);
  const ns = Math.min(n, nlist * per);
  const sample = new Float32Array(ns * dim);
  const step = n / ns;
  for (let i = 0; i < ns; i++) sample.set(all.subarray(Math.floor(i * step) * dim, Math.floor(i * step) * dim + dim), i * dim);
  idx.train(sample as any);
  const tt = performance.now() - t1;
  for (let s = 0; s < n; s += 65536) idx.add(all.subarray(s * dim, Math.min(n, s + 65536) * dim) as any);
  const file = `.dxgraph-bench/ivf-sweep-${fac.replace(/[^A-Za-z0-9]/g, '_')}.faiss`;
  idx.write(file);
  console.log(fac, 'train ms', Math.round(tt), 'build ms', Math.round(performance.now() - t1));
  const fd = fs.openSync(file, 'r+');
  const head = Buffer.alloc(64); fs.readSync(fd, head, 0, 64, 0); // the IVF header holds nprobe
  for (const np of nprobes) {
    patchIvfNprobe(head, np);
    fs.writeSync(fd, head, 0, 64, 0);
    const ix = F.Index.read(file);
    const times: number[] = []; let rec = 0;
    qv.forEach((q, i) => { const t = performance.now(); const r = ix.search(q as any, 10); times.push(performance.now() - t);
      rec += r.labels.filter((l: number, j: number) => truthSets[i]!.has(l) || r.distances[j]! >= kth[i]! - 1e-5).length / 10; });
    times.sort((a, b) => a - b);
    console.log(`  ${fac} nprobe ${np}: recall ${(rec / qv.length).toFixed(4)} p50 ${times[50]!.toFixed(2)} p99 ${times[98]!.toFixed(2)} ms rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
  }
  fs.closeSync(fd);
}
