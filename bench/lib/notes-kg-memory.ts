import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embeddings } from '@langchain/core/embeddings';
import type { NormalizedRecord } from '../../src/domain/record.js';
import type { NoteReaderDeps } from '../../src/clinical-text/read-notes.js';
import type { PhraseEmbedder } from '../../src/clinical-text/concepts/embed-forms.js';
import { matchConcepts } from '../../src/clinical-text/concepts/match-concepts.js';
import { decompose } from '../../src/clinical-text/decompose.js';
import type { FeatureMatch } from '../../src/query/contracts.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import { textInput } from '../../src/query/query-service.js';
import { DEFAULT_EVIDENCE_OPTIONS, rankDiseases, type EvidenceReasonerOptions } from '../../src/reasoners/evidence-reasoner.js';
import { aggregateHierarchy } from '../../kg-build/aggregate-hierarchy.js';
import { assemble } from '../../kg-build/assemble-kg.js';
import { clusterDiseases } from '../../kg-build/cluster-diseases.js';
import { decomposeFeatures, type DecomposeOptions } from '../../kg-build/decompose-features.js';
import { emptyNotesReport, readRecordNotes, type ReadNotesReport } from '../../kg-build/read-notes-stage.js';
import { scanRecords } from '../../kg-build/scan-records.js';

/**
 * The notes KG of the bench, built in memory with the build's own stages (read notes → scan →
 * cluster → decompose with emergent concepts → hierarchy) and asked with the query's own stages
 * (decompose → concept layer → evidence reasoner's naive Bayes), without Neo4j or FAISS: the
 * figures are those of the KG's knowledge alone (no vote, key-difference or kNN prior).
 */
export interface MemoryKg {
  snapshot: KgSnapshot;
  report: ReadNotesReport;
  emergent: { candidates: number; kept: number };
}

async function* stream(records: readonly NormalizedRecord[]): AsyncIterable<NormalizedRecord> {
  yield* records;
}

export async function buildMemoryKg(records: readonly NormalizedRecord[], deps: { reader: NoteReaderDeps; embeddings: Embeddings; decompose?: Partial<DecomposeOptions> }): Promise<MemoryKg> {
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-notes-'));
  try {
    const report = emptyNotesReport();
    const scan = await scanRecords({ records: readRecordNotes(stream(records), deps.reader, report), spoolPath: join(dir, 'spool.jsonl') });
    const clusters = await clusterDiseases({ diagnoses: scan.diagnoses, embeddings: deps.embeddings });
    const ehr = await decomposeFeatures({ scan, clusters, embeddings: deps.embeddings, noteKeys: report.keys, codedKeys: report.codedKeys }, deps.decompose ?? {});
    const hierarchy = await aggregateHierarchy({ diseases: clusters.diseases, features: ehr.features, manifestations: ehr.manifestations }, { mode: 'statistical', sizes: { subcategories: 'auto', categories: 'auto' } });
    const kg = assemble({ clusters, hierarchy, ehr, augmented: { features: [], manifestations: [] }, keyDifferences: [] });
    return { snapshot: buildSnapshot(kg), report, emergent: ehr.emergent };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface AskDeps {
  lexicon: NoteReaderDeps['lexicon'];
  phraseEmbedder: PhraseEmbedder | null;
  reasoner?: Partial<EvidenceReasonerOptions>;
}

/** Disease names of the KG, best first, for one text. */
export function askMemoryKg(kg: KgSnapshot, text: string, deps: AskDeps): string[] {
  const d = decompose({ text, findings: [] });
  const read = matchConcepts({ snapshot: kg, lexicon: deps.lexicon, phraseEmbedder: deps.phraseEmbedder }, { findings: d.findings, text });
  const matches: FeatureMatch[] = [...read.values()].flat();
  const input = { ...textInput(text), age: d.demographics.age, sex: d.demographics.sex };
  const ctx = { input, findings: d.findings, matches, votes: [], candidates: [], differencesKg: [], retrieved: [], followUps: [], snapshot: kg, signal: null };
  return rankDiseases(ctx, { ...DEFAULT_EVIDENCE_OPTIONS, ...deps.reasoner, maxDifferential: kg.diseases.length }).map((r) => r.disease);
}
