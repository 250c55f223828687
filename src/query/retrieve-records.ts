import type { VectorIndexLike } from '../adapters/faiss/types.js';
import type { RetrievedRecord } from './contracts.js';
import { embedBatch, type TextEmbedder } from './embed.js';

/**
 * EHR retrieval (MedRAG 4.3, d_r): the top-k training records most similar to the
 * patient's description, from the records FAISS index, with their diagnosis and text.
 */
export interface RecordRow {
  id: string;
  diagnosis: string;
  diseaseId: string | null;
  text: string;
}

export interface RetrieveRecordsInput {
  /** The query text: the patient's description (or its findings joined). */
  text: string;
  topK: number;
}

export interface RetrieveRecordsDeps {
  embedder: TextEmbedder;
  recordIndex: VectorIndexLike;
  /** Record id → row (records.jsonl). */
  records: ReadonlyMap<string, RecordRow>;
}

export async function retrieveRecords(deps: RetrieveRecordsDeps, input: RetrieveRecordsInput): Promise<RetrievedRecord[]> {
  if (input.topK <= 0 || !input.text.trim() || deps.recordIndex.size === 0) return [];
  const [vector] = await embedBatch(deps.embedder, [input.text]);
  const hits = deps.recordIndex.search(vector!, Math.min(input.topK, deps.recordIndex.size));
  return hits.flatMap((h) => {
    const row = deps.records.get(h.id);
    return row ? [{ id: row.id, similarity: h.score, diagnosis: row.diagnosis, diseaseId: row.diseaseId, text: row.text }] : [];
  });
}
