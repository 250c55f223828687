/**
 * The retrieval index's records as the leakage check needs them (leakage.ts: ids and content
 * fingerprints), read straight from the build's rows file (records.jsonl) by the query service's
 * own streamed reader (src/query/load-snapshot.ts recordRowsOf), so `dxgraph eval` can refuse a
 * leaking test set before it opens the KG, the FAISS indexes and the text models (issue 49: a
 * refusal cost a whole start-up). Only the ids and digests are kept.
 */
import { join } from 'node:path';
import { buildDir, type BuildManifest } from '../domain/artifacts.js';
import { recordRowsOf } from '../query/load-snapshot.js';
import { recordFingerprint, type IndexedRecords } from './leakage.js';

export async function readIndexedRecords(dataDir: string, manifest: Pick<BuildManifest, 'buildId' | 'recordIndex'>): Promise<IndexedRecords> {
  const ids = new Set<string>();
  const fingerprints = new Set<string>();
  for await (const row of recordRowsOf(join(buildDir(dataDir, manifest.buildId), manifest.recordIndex.rows))) {
    ids.add(row.id);
    fingerprints.add(recordFingerprint(row));
  }
  return { ids, fingerprints };
}
