import { join } from 'node:path';

/**
 * On-disk artifacts of a build, beside the KG in Neo4j:
 *   <dataDir>/builds/<buildId>/manifest.json     BuildManifest
 *   <dataDir>/builds/<buildId>/records.faiss     FAISS index of training-record embeddings
 *   <dataDir>/builds/<buildId>/records.jsonl     one {id, diagnosis, diseaseId, text} per index row, in index order
 *   <dataDir>/builds/<buildId>/features.faiss    FAISS (flat) index of feature-node embeddings, for matching
 *   <dataDir>/builds/<buildId>/features.ids.json feature ids in index order
 *   <dataDir>/builds/<buildId>/chunks.faiss      FAISS (flat) index of distinct record-chunk texts (finding lines) for FIND retrieval
 *   <dataDir>/builds/<buildId>/chunks.ids.json   per row, the text's first chunk id `<recordId>#<n>`
 *   <dataDir>/builds/<buildId>/chunks.groups.json  per row, every chunk id holding that text
 *   <dataDir>/builds/<buildId>/gate-classifier.json  A/B/C sentence classifier of the information-density gate
 *   <dataDir>/builds/<buildId>/gate-metrics.json     its training report (annotation, held-out metrics, calibration)
 *   <dataDir>/builds/<buildId>/calibration.json  posterior calibration of the evidence reasoner (src/calibration/calibration-file.ts)
 *   <dataDir>/current                            text file holding the current buildId
 */
export interface ChunkIndexEntry {
  /** Chunks (record sentences); the index holds one vector per distinct text (`texts`). */
  size: number;
  texts: number;
  file: string;
  ids: string;
  /** JSON: per index row, the chunk ids holding that text. */
  groups: string;
}

/** The gate's classifier, its report and the thresholds calibrated at build time (null: keep the configured ones). */
export interface GateEntry {
  classifier: string;
  metrics: string;
  thresholds: { theta1: number; theta2: number } | null;
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
  createdAt: string;
  /** FIND chunk index; absent in builds made before it existed. */
  chunkIndex?: ChunkIndexEntry;
  /** Absent when the build trained no gate classifier (the gate then runs as off in 'auto'). */
  gate?: GateEntry;
  /** Posterior calibration fitted on held-out cases (src/calibration); absent: scores are served uncalibrated. */
  calibration?: { file: string };
}

export const buildDir = (dataDir: string, buildId: string) => join(dataDir, 'builds', buildId);
export const currentPointer = (dataDir: string) => join(dataDir, 'current');
export const manifestPath = (dataDir: string, buildId: string) => join(buildDir(dataDir, buildId), 'manifest.json');
