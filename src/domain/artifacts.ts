import { join } from 'node:path';

/**
 * On-disk artifacts of a build, beside the KG in Neo4j:
 *   <dataDir>/builds/<buildId>/manifest.json     BuildManifest
 *   <dataDir>/builds/<buildId>/records.faiss     FAISS index of training-record embeddings
 *   <dataDir>/builds/<buildId>/records.jsonl     one {id, diagnosis, diseaseId, text} per index row, in index order
 *   <dataDir>/builds/<buildId>/records.lexical.bin  TF-IDF inverted index of the same rows (src/query/lexical-index-file.ts)
 *   <dataDir>/builds/<buildId>/features.faiss    FAISS (flat) index of feature-node embeddings, for matching
 *   <dataDir>/builds/<buildId>/features.ids.json feature ids in index order
 *   <dataDir>/builds/<buildId>/chunks.faiss      FAISS (flat) index of distinct record-chunk texts (finding lines) for FIND retrieval
 *   <dataDir>/builds/<buildId>/chunks.ids.json   per row, the text's first chunk id `<recordId>#<n>`
 *   <dataDir>/builds/<buildId>/chunks.groups.json  per row, every chunk id holding that text
 *   <dataDir>/builds/<buildId>/gate-classifier.json  A/B/C sentence classifier of the information-density gate
 *   <dataDir>/builds/<buildId>/gate-metrics.json     its training report (annotation, held-out metrics, calibration)
 *   <dataDir>/builds/<buildId>/split-patients.json  hashed keys of the training patients (builds with a held-out share)
 *   <dataDir>/builds/<buildId>/calibration.json  posterior calibration of the evidence reasoner (src/calibration/calibration-file.ts)
 *   <dataDir>/current                            text file holding the current buildId
 */
export interface ChunkIndexEntry {
  /** Chunks (record sentences); the index holds one vector per distinct text (`texts`). */
  size: number;
  texts: number;
  file: string;
  ids: string;
  /** JSON: per index row, the chunk ids holding that text (its first `membersPerText`). */
  groups: string;
  /**
   * Chunk ids listed per text at most (kg-build/distinct-chunks.ts MEMBERS_PER_TEXT): a top-m
   * search with m up to this returns what the full lists would. Absent (builds before the cap):
   * every chunk is listed.
   */
  membersPerText?: number;
}

/** The gate's classifier, its report and the thresholds calibrated at build time (null: keep the configured ones). */
export interface GateEntry {
  classifier: string;
  metrics: string;
  thresholds: { theta1: number; theta2: number } | null;
}

/** The unit of a train/test split: patient when every record named its patient, record when none did. */
export type SplitUnit = 'patient' | 'record' | 'mixed';

export interface SplitSideCounts {
  records: number;
  /** Distinct patients; a record without a patient counts as one. */
  patients: number;
}

/** A split applied to a source: how, by what unit, and what went to each side. */
export interface SplitSummary {
  testFraction: number;
  seed: number;
  stratify: boolean;
  unit: SplitUnit;
  train: SplitSideCounts;
  test: SplitSideCounts;
}

/** The held-out share a build was made with (`build --test-fraction/--seed`), for `dxgraph eval`. */
export interface BuildSplit extends SplitSummary {
  /** JSON `{ train: string[] }`: digests of the training patients (src/sources/split-tracker.ts); null when no record named a patient. */
  patientsFile: string | null;
}

export interface BuildManifest {
  buildId: string;
  source: string;
  embedder: string;
  embeddingDim: number;
  recordIndex: { kind: 'flat' | 'ivf' | 'hnsw'; size: number; file: string; rows: string };
  featureIndex: { size: number; file: string; ids: string };
  /** Record ids in the retrieval index, for the evaluation leakage check. */
  recordIdsFile: string;
  /** The records' lexical index, rows in records.jsonl order; absent in builds made before it existed. */
  lexicalIndex?: { file: string; rows: number; terms: number; noteRecords: number };
  createdAt: string;
  /** FIND chunk index; absent in builds made before it existed. */
  chunkIndex?: ChunkIndexEntry;
  /** Absent when the build trained no gate classifier (the gate then runs as off in 'auto'). */
  gate?: GateEntry;
  /** Absent when the build saw the whole source (no --test-fraction). */
  split?: BuildSplit;
  /** Posterior calibration fitted on held-out cases (src/calibration), and how (`basis`); absent: scores are served uncalibrated. */
  calibration?: { file: string; basis?: string };
  /** Why a build that calibrates by default is not calibrated (too few patients to hold out; issue 48). */
  uncalibrated?: string;
}

export const buildDir = (dataDir: string, buildId: string) => join(dataDir, 'builds', buildId);
export const currentPointer = (dataDir: string) => join(dataDir, 'current');
export const manifestPath = (dataDir: string, buildId: string) => join(buildDir(dataDir, buildId), 'manifest.json');
