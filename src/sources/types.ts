import type { NormalizedRecord } from '../domain/record.js';
import type { VocabularyConcept } from '../clinical-text/vocabulary.js';

/**
 * Contract of every EHR source (DDXPlus files, CSV/JSONL + mapping, PostgreSQL).
 * Sources stream: records are yielded one at a time, never collected in memory.
 */
export type SourceSpec =
  | { kind: 'ddxplus'; dir: string }
  | { kind: 'csv'; path: string; mappingPath: string }
  | { kind: 'jsonl'; path: string; mappingPath: string }
  | { kind: 'postgres'; url: string; queryFile: string | null; mappingPath: string | null }
  /** OMOP CDM v5.4 in PostgreSQL; the URL may carry ?schema=…&label=primary|earliest. */
  | { kind: 'omop'; url: string }
  /** A directory of FHIR R4 bundles (*.json) and/or bulk-export ndjson files. */
  | { kind: 'fhir'; dir: string };

export interface SourceOptions {
  /** Stop at the first malformed row instead of skipping and counting it. */
  strict: boolean;
}

/** A malformed row that was skipped: where and why (never the row's patient text). */
export interface SkippedRow {
  location: string;
  reason: string;
}

export interface ImportSummary {
  rowsRead: number;
  recordsEmitted: number;
  skipped: number;
  /** reason category -> count; sums to `skipped`. */
  skippedByReason: Record<string, number>;
  /** First few skipped rows, for the report. */
  examples: SkippedRow[];
  /**
   * Facts of emitted records that gave no finding (OMOP / FHIR: an unparseable lab value, an
   * unmapped concept, a measurement of no visit). Counted apart from skipped records, which
   * they are not; absent for sources that map one row to one record.
   */
  factsSkipped?: { count: number; byReason: Record<string, number>; examples: SkippedRow[] };
}

/** Diagnosis string (as records spell it) → declared evidence codes, or null when the source does not know it. */
export type DeclaredEvidence = (diagnosis: string) => readonly string[] | null;

/** What curated knowledge says of a diagnosis's findings: evidence code → how often it is seen, and where that comes from. */
export interface KnownEvidence {
  source: string;
  rates: Readonly<Record<string, number>>;
}

/** Diagnosis string (as records spell it) → curated knowledge of its findings, or null when there is none. */
export type DiseaseKnowledge = (diagnosis: string) => KnownEvidence | null;

export interface RecordSource {
  /** Human-readable description, e.g. "ddxplus:datasets/ddxplus". Recorded with the build. */
  readonly description: string;
  /** Stream the records. The summary is complete once the iterator is exhausted. */
  records(): AsyncIterable<NormalizedRecord>;
  summary(): ImportSummary;
  /**
   * The source's own knowledge of which evidence codes a diagnosis can show (DDXPlus:
   * release_conditions.json), as a lookup by the diagnosis string its records carry; absent
   * for sources without such a dictionary. The reasoner prices a declared but never-recorded
   * feature as possible, not as never seen (src/reasoners/scoring-naive-bayes.ts).
   */
  declaredEvidence?(): Promise<DeclaredEvidence>;
  /**
   * Curated knowledge of the findings of the source's diagnoses (DDXPlus: Orphanet's HPO
   * annotations, src/sources/ddxplus/disease-knowledge.ts); absent for sources without any.
   * Free text is scored with it where a disease's records never showed a finding.
   */
  diseaseKnowledge?(): Promise<DiseaseKnowledge>;
  /**
   * The source's own coded concepts a note may name, `code` spelled as its findings carry it
   * ("SNOMED:56018004"), with names and synonyms: the first tier the build reads notes with
   * (issue 24). Absent for sources without a concept dictionary.
   */
  codedConcepts?(): Promise<VocabularyConcept[]>;
  /** Release connections (PostgreSQL); safe to call twice. */
  close(): Promise<void>;
}
