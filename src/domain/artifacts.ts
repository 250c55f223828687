import { join } from 'node:path';

/**
 * On-disk artifacts of a build, beside the KG in Neo4j:
 *   <dataDir>/builds/<buildId>/manifest.json     BuildManifest
 *   <dataDir>/builds/<buildId>/records.faiss     FAISS index of training-record embeddings
 *   <dataDir>/builds/<buildId>/records.jsonl     one {id, diagnosis, diseaseId, text} per index row, in index order
 *   <dataDir>/builds/<buildId>/features.faiss    FAISS (flat) index of feature-node embeddings, for matching
 *   <dataDir>/builds/<buildId>/features.ids.json feature ids in index order
 *   <dataDir>/current                            text file holding the current buildId
 */
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
}

export const buildDir = (dataDir: string, buildId: string) => join(dataDir, 'builds', buildId);
export const currentPointer = (dataDir: string) => join(dataDir, 'current');
export const manifestPath = (dataDir: string, buildId: string) => join(buildDir(dataDir, buildId), 'manifest.json');
