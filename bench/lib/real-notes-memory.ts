import type { NormalizedRecord } from '../../src/domain/record.js';
import type { DecomposeOptions } from '../../kg-build/decompose-features.js';
import { HashedEmbedder } from '../../src/adapters/embeddings/index.js';
import { askMemoryKg, buildMemoryKg, type MemoryKg } from './notes-kg-memory.js';
import { notesReaders } from './notes-kg-run.js';
import type { RealNote } from './real-notes-data.js';
import { VIEWS, type View } from './real-notes-views.js';
import { TfidfCentroid } from './tfidf-centroid.js';
import { TfidfKnn } from './tfidf-knn.js';

/**
 * One fold of the real-notes bench in memory: a KG built by the build's own stages from the
 * training notes as WHOLE notes (the build's note preparation leaves out their diagnosis sections,
 * as for any source), asked by naive Bayes over its features (the KG's knowledge alone), beside
 * TF-IDF kNN and nearest centroid trained on the same notes, once on the whole (prepared) notes
 * and once on the notes in the view asked.
 */
export const MEMORY_METHODS = ['kg-nb', 'knn-whole', 'knn-view', 'centroid-whole', 'centroid-view'] as const;
export type MemoryMethod = (typeof MEMORY_METHODS)[number];

/** [top-1, top-3] hit counts. */
export type Hits = [number, number];
export type ViewHits = Record<View, Record<string, Hits>>;

export interface FoldKg {
  notes: number;
  features: number;
  emergent: MemoryKg['emergent'];
  buildMs: number;
}

const toRecord = (n: RealNote, i: number): NormalizedRecord => ({
  id: `real:${n.id}:${i}`, diagnosis: n.diagnosis, icd10: null, age: null, sex: null, findings: [], initialFindingCode: null, text: '', location: n.id,
  notes: [{ origin: 'text', title: null, text: n.text }],
});

export function emptyHits(methods: readonly string[]): ViewHits {
  const one = () => Object.fromEntries(methods.map((m) => [m, [0, 0] as Hits]));
  return { presentation: one(), whole: one() };
}

export function addHit(h: Hits, ranked: readonly string[], gold: string): void {
  if (ranked[0] === gold) h[0]++;
  if (ranked.slice(0, 3).includes(gold)) h[1]++;
}

export async function runMemoryFold(o: {
  train: readonly RealNote[];
  test: readonly RealNote[];
  /** The held-out and training notes in each view, by note id (scrubbed, as asked). */
  viewOf: (n: RealNote, v: View) => string;
  prepared: (n: RealNote) => string;
  minPatients: number;
  decompose?: Partial<DecomposeOptions>;
  hits: ViewHits;
}): Promise<{ kg: FoldKg; memory: MemoryKg }> {
  const { vocab, phraseEmbedder, prepare } = await notesReaders();
  const t0 = performance.now();
  const memory = await buildMemoryKg(o.train.map(toRecord), { reader: { vocabulary: vocab.snapshot, lexicon: vocab.lexicon, prepare }, embeddings: new HashedEmbedder(), decompose: { ...o.decompose, emergent: { ...o.decompose?.emergent, minPatients: o.minPatients } } });
  const buildMs = performance.now() - t0;
  const whole = o.train.map((n) => ({ text: o.prepared(n), label: n.diagnosis }));
  const knnWhole = TfidfKnn.fit(whole, { k: 10 });
  const centroidWhole = TfidfCentroid.fit(whole);
  for (const v of VIEWS) {
    const inView = o.train.map((n) => ({ text: o.viewOf(n, v), label: n.diagnosis }));
    const knnView = TfidfKnn.fit(inView, { k: 10 });
    const centroidView = TfidfCentroid.fit(inView);
    for (const n of o.test) {
      const q = o.viewOf(n, v);
      const h = o.hits[v];
      addHit(h['kg-nb']!, askMemoryKg(memory.snapshot, q, { lexicon: vocab.lexicon, phraseEmbedder }), n.diagnosis);
      addHit(h['knn-whole']!, knnWhole.rank(q).map((r) => r.label), n.diagnosis);
      addHit(h['knn-view']!, knnView.rank(q).map((r) => r.label), n.diagnosis);
      addHit(h['centroid-whole']!, centroidWhole.rank(q).map((r) => r.label), n.diagnosis);
      addHit(h['centroid-view']!, centroidView.rank(q).map((r) => r.label), n.diagnosis);
    }
  }
  return { kg: { notes: o.train.length, features: memory.snapshot.features.length, emergent: memory.emergent, buildMs }, memory };
}
