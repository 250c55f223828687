/**
 * The retrieval index's records as the leakage check needs them (leakage.ts: ids and content
 * fingerprints), read straight from the build's rows file (records.jsonl), so `dxgraph eval`
 * can refuse a leaking test set before it opens the KG, the FAISS indexes and the text models
 * (issue 49: a refusal cost a whole start-up). Streamed line by line, like the query service's
 * own reader (src/query/load-snapshot.ts), and only the ids and digests are kept.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildDir, type BuildManifest } from '../domain/artifacts.js';
import { ArtifactError, errorMessage } from '../errors.js';
import { recordFingerprint, type IndexedRecords } from './leakage.js';

const isRow = (x: unknown): x is { id: string; diagnosis: string; text: string } => {
  const r = x as { id?: unknown; diagnosis?: unknown; text?: unknown } | null;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.diagnosis === 'string' && typeof r.text === 'string';
};

export async function readIndexedRecords(dataDir: string, manifest: Pick<BuildManifest, 'buildId' | 'recordIndex'>): Promise<IndexedRecords> {
  const path = join(buildDir(dataDir, manifest.buildId), manifest.recordIndex.rows);
  const ids = new Set<string>();
  const fingerprints = new Set<string>();
  let line = 0;
  try {
    for await (const text of createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity })) {
      line++;
      if (!text.trim()) continue;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch (e) {
        throw new ArtifactError(path, `record rows ${path}:${line} is corrupt`, { cause: e });
      }
      if (!isRow(row)) throw new ArtifactError(path, `record rows ${path}:${line} is corrupt: needs string id, diagnosis and text`);
      ids.add(row.id);
      fingerprints.add(recordFingerprint(row));
    }
  } catch (e) {
    if (e instanceof ArtifactError) throw e;
    throw new ArtifactError(path, `record rows missing or unreadable at ${path}: ${errorMessage(e)}`, { cause: e });
  }
  return { ids, fingerprints };
}
