import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { decomposeFeatures, type DecomposeOptions } from '../../kg-build/decompose-features.js';
import { HashedEmbedder } from '../../src/adapters/embeddings/index.js';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import { decompose as decomposeText } from '../../src/clinical-text/decompose.js';
import type { FeatureMatch, RetrievedRecord } from '../../src/query/contracts.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import { textInput } from '../../src/query/query-service.js';
import { DEFAULT_EVIDENCE_OPTIONS, rankDiseases, type EvidenceReasonerOptions } from '../../src/reasoners/evidence-reasoner.js';
import { aggregateHierarchy } from '../../kg-build/aggregate-hierarchy.js';
import { assemble } from '../../kg-build/assemble-kg.js';
import { clusterDiseases } from '../../kg-build/cluster-diseases.js';
import { emptyNotesReport, readRecordNotes } from '../../kg-build/read-notes-stage.js';
import { scanRecords } from '../../kg-build/scan-records.js';
import type { NoteReaderDeps } from '../../src/clinical-text/read-notes.js';
import type { PhraseEmbedder } from '../../src/clinical-text/concepts/embed-forms.js';
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
 * and once on the notes in the view asked. The notes are read and scanned once per fold and the
 * KG decomposed once per variant of the build options (--sweep), as bench/lib/notes-kg-memory.ts
 * does in one go; a held-out note's findings are read once and matched against each variant's KG.
 */
export const MEMORY_METHODS = ['kg-nb', 'knn-whole', 'knn-view', 'centroid-whole', 'centroid-view'] as const;
export type MemoryMethod = (typeof MEMORY_METHODS)[number];

/** [top-1, top-3] hit counts. */
export type Hits = [number, number];
export type ViewHits = Record<View, Record<string, Hits>>;

export interface FoldKg {
  notes: number;
  features: number;
  emergent: { candidates: number; kept: number };
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

async function* stream(records: readonly NormalizedRecord[]): AsyncIterable<NormalizedRecord> {
  yield* records;
}

type Scanned = { scan: Awaited<ReturnType<typeof scanRecords>>; clusters: Awaited<ReturnType<typeof clusterDiseases>>; report: ReturnType<typeof emptyNotesReport> };

async function kgOf(s: Scanned, decompose: Partial<DecomposeOptions>): Promise<{ snapshot: KgSnapshot; emergent: FoldKg['emergent'] }> {
  const embeddings = new HashedEmbedder();
  const ehr = await decomposeFeatures({ scan: s.scan, clusters: s.clusters, embeddings, noteKeys: s.report.keys, codedKeys: s.report.codedKeys }, decompose);
  const hierarchy = await aggregateHierarchy({ diseases: s.clusters.diseases, features: ehr.features, manifestations: ehr.manifestations }, { mode: 'statistical', sizes: { subcategories: 'auto', categories: 'auto' } });
  const kg = assemble({ clusters: s.clusters, hierarchy, ehr, augmented: { features: [], manifestations: [] }, keyDifferences: [] });
  return { snapshot: buildSnapshot(kg), emergent: ehr.emergent };
}

/** notes-kg-memory.ts askMemoryKg with the note's findings read once (they do not depend on the KG). */
function ask(kg: KgSnapshot, text: string, d: ReturnType<typeof decomposeText>, deps: { lexicon: NoteReaderDeps['lexicon']; phraseEmbedder: PhraseEmbedder | null }, evidence: readonly Partial<EvidenceReasonerOptions>[], records: Records | null = null): string[][] {
  const read = matchConcepts({ snapshot: kg, lexicon: deps.lexicon, phraseEmbedder: deps.phraseEmbedder }, { findings: d.findings, text });
  const matches: FeatureMatch[] = [...read.values()].flat();
  const input = { ...textInput(text), age: d.demographics.age, sex: d.demographics.sex };
  const ctx = { input, findings: d.findings, matches, votes: [], candidates: [], differencesKg: [], retrieved: records?.retrieved ?? [], profiles: records?.profiles ?? null, followUps: [], snapshot: kg, signal: null };
  return evidence.map((e) => rankDiseases(ctx, { ...DEFAULT_EVIDENCE_OPTIONS, ...e, maxDifferential: kg.diseases.length }).map((r) => r.disease));
}

/**
 * What the served path adds from the training records, approximated with the bench's TF-IDF:
 * the k nearest notes (the record kNN prior) and the cosine with each disease's centroid (the
 * disease profiles prior). The product's lexical index weighs terms its own way; --served measures the real one.
 */
interface Records {
  retrieved: RetrievedRecord[];
  profiles: Float64Array;
}

function recordsOf(kg: KgSnapshot, q: string, knn: TfidfKnn, centroid: TfidfCentroid): Records {
  const byName = new Map(kg.diseases.map((d, i) => [d.name.toLowerCase(), i]));
  const profiles = new Float64Array(kg.diseases.length);
  for (const r of centroid.rank(q)) {
    const i = byName.get(r.label.toLowerCase());
    if (i !== undefined) profiles[i] = r.score;
  }
  const retrieved = knn.neighbours(q).map((nb, i) => {
    const at = byName.get(nb.label.toLowerCase());
    return { id: `nb${i}`, similarity: nb.similarity, diagnosis: nb.label, diseaseId: at === undefined ? null : kg.diseases[at]!.id, text: '', summary: null };
  });
  return { retrieved, profiles };
}

/** A variant of the build options, scored as its own method row ("kg-nb" for the first). */
export interface Variant {
  name: string;
  decompose: Partial<DecomposeOptions>;
  /** Evidence reasoner options asked of this KG, each its own row (`${name} ev${JSON}`); the first is the variant's own row. */
  evidence?: readonly Partial<EvidenceReasonerOptions>[];
}

/** The row name of a variant's i-th evidence options. */
export const evidenceRow = (v: Variant, i: number) => (i === 0 ? v.name : `${v.name} ev${JSON.stringify(v.evidence![i])}`);

export async function runMemoryFold(o: {
  train: readonly RealNote[];
  test: readonly RealNote[];
  /** A note in a view, scrubbed as the build scrubs. */
  viewOf: (n: RealNote, v: View) => string;
  prepared: (n: RealNote) => string;
  minPatients: number;
  variants: readonly Variant[];
  hits: ViewHits;
}): Promise<{ kgs: FoldKg[] }> {
  const { vocab, phraseEmbedder, prepare } = await notesReaders();
  const whole = o.train.map((n) => ({ text: o.prepared(n), label: n.diagnosis }));
  const knnWhole = TfidfKnn.fit(whole, { k: 10 });
  const centroidWhole = TfidfCentroid.fit(whole);
  const t0 = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-real-notes-'));
  const kgs: FoldKg[] = [];
  try {
    const report = emptyNotesReport();
    const scan = await scanRecords({ records: readRecordNotes(stream(o.train.map(toRecord)), { vocabulary: vocab.snapshot, lexicon: vocab.lexicon, prepare }, report), spoolPath: join(dir, 'spool.jsonl') });
    const clusters = await clusterDiseases({ diagnoses: scan.diagnoses, embeddings: new HashedEmbedder() });
    const scanMs = performance.now() - t0;
    const read = new Map(VIEWS.map((v) => [v, new Map(o.test.map((n) => [n.id, decomposeText({ text: o.viewOf(n, v), findings: [] })]))]));
    for (const variant of o.variants) {
      const t1 = performance.now();
      const kg = await kgOf({ scan, clusters, report }, { ...variant.decompose, emergent: { ...variant.decompose.emergent, minPatients: variant.decompose.emergent?.minPatients ?? o.minPatients } });
      kgs.push({ notes: o.train.length, features: kg.snapshot.features.length, emergent: kg.emergent, buildMs: scanMs + performance.now() - t1 });
      for (const v of VIEWS) {
        for (const n of o.test) {
          const q = o.viewOf(n, v);
          const ranked = ask(kg.snapshot, q, read.get(v)!.get(n.id)!, { lexicon: vocab.lexicon, phraseEmbedder }, variant.evidence ?? [{}]);
          ranked.forEach((r, i) => addHit(o.hits[v][evidenceRow(variant, i)]!, r, n.diagnosis));
          const withRecords = ask(kg.snapshot, q, read.get(v)!.get(n.id)!, { lexicon: vocab.lexicon, phraseEmbedder }, variant.evidence ?? [{}], recordsOf(kg.snapshot, q, knnWhole, centroidWhole));
          withRecords.forEach((r, i) => addHit(o.hits[v][`${evidenceRow(variant, i)} +records`]!, r, n.diagnosis));
        }
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  for (const v of VIEWS) {
    const inView = o.train.map((n) => ({ text: o.viewOf(n, v), label: n.diagnosis }));
    const knnView = TfidfKnn.fit(inView, { k: 10 });
    const centroidView = TfidfCentroid.fit(inView);
    for (const n of o.test) {
      const q = o.viewOf(n, v);
      const h = o.hits[v];
      addHit(h['knn-whole']!, knnWhole.rank(q).map((r) => r.label), n.diagnosis);
      addHit(h['knn-view']!, knnView.rank(q).map((r) => r.label), n.diagnosis);
      addHit(h['centroid-whole']!, centroidWhole.rank(q).map((r) => r.label), n.diagnosis);
      addHit(h['centroid-view']!, centroidView.rank(q).map((r) => r.label), n.diagnosis);
    }
  }
  return { kgs };
}
