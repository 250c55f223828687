import type { VectorIndexLike } from '../adapters/faiss/types.js';
import type { RetrievedRecord } from './contracts.js';
import { embedBatch, type TextEmbedder } from './embed.js';
import type { LexicalIndex } from './lexical-index.js';

/**
 * EHR retrieval (MedRAG 4.3, d_r): the top-k training records most similar to the
 * patient's description, with their diagnosis and text. Similar by meaning (the records FAISS
 * index), by words (the lexical TF-IDF index, which weighs a note's rare words), or both
 * ("hybrid": the union of both top-k lists, each record scored by the sum of its two cosines,
 * each divided by its list's best, 0 where a list does not hold it). Which one serves best is measured in docs/notes.md.
 * "none" turns retrieval off (no kNN step, no similar records, no disease profiles): the KG's own
 * reasoning, measurable apart from the records' votes (issue 47 item 5).
 */
export const RECORD_RETRIEVALS = ['auto', 'dense', 'lexical', 'hybrid', 'none'] as const;
export type RecordRetrieval = (typeof RECORD_RETRIEVALS)[number];
/**
 * "auto": by words when a written description meets records written as notes, by meaning
 * otherwise. Measured (docs/notes.md): on notes KGs words find the right disease's records more
 * often (+2 to +4 points top-1 on the dev sets); for coded findings joined as text (a DDXPlus
 * patient's one initial evidence) words are noise (interactive @0 34.6 -> 32.7), and records that
 * are coded answers have no words of their own to match a description's (free text on the DDXPlus
 * KG: +1.4 top-1 but -0.6 top-3), so both keep the vector index.
 */
export const DEFAULT_RECORD_RETRIEVAL: RecordRetrieval = 'auto';

/** The lexical index, the record id of each of its rows, and whether any record was read from notes. */
export interface LexicalRecords {
  index: LexicalIndex;
  ids: readonly string[];
  fromNotes: boolean;
}

export interface RecordRow {
  id: string;
  diagnosis: string;
  diseaseId: string | null;
  text: string;
  /** The record in the clinical voice (presentation/record-summary.ts); absent in builds before it. */
  summary?: string;
  /** Read from a note (builds before the flag: absent on every row). */
  notes?: boolean;
}

export interface RetrieveRecordsInput {
  /** The query text: the patient's description (or its findings joined). */
  text: string;
  topK: number;
  /** The query is a written description (not coded findings joined): what "auto" goes by. */
  fromText?: boolean;
}

export interface RetrieveRecordsDeps {
  embedder: TextEmbedder;
  recordIndex: VectorIndexLike;
  /** Record id → row (records.jsonl). */
  records: ReadonlyMap<string, RecordRow>;
  /** Absent (a build without one) or null: dense retrieval whatever `retrieval` says. */
  lexical?: LexicalRecords | null;
  recordRetrieval?: RecordRetrieval;
}

/** The retrieval a query gets: "auto" resolved, dense when the build has no lexical index, "none" when turned off. */
export type ResolvedRetrieval = Exclude<RecordRetrieval, 'auto'>;
export function resolveRecordRetrieval(deps: Pick<RetrieveRecordsDeps, 'lexical' | 'recordRetrieval'>, fromText: boolean): ResolvedRetrieval {
  const chosen = deps.recordRetrieval ?? 'dense';
  if (chosen === 'none') return 'none';
  if (!deps.lexical) return 'dense';
  return chosen === 'auto' ? (fromText && deps.lexical.fromNotes ? 'lexical' : 'dense') : chosen;
}

/** A retrieval hit as the trace shows it (every retrieval mode); none when its row is missing. */
export function retrievedOf(records: ReadonlyMap<string, RecordRow>, id: string, similarity: number): RetrievedRecord[] {
  const row = records.get(id);
  return row ? [{ id: row.id, similarity, diagnosis: row.diagnosis, diseaseId: row.diseaseId, text: row.text, summary: row.summary ?? null }] : [];
}

export async function retrieveRecords(deps: RetrieveRecordsDeps, input: RetrieveRecordsInput): Promise<RetrievedRecord[]> {
  const mode = resolveRecordRetrieval(deps, input.fromText ?? false);
  if (mode === 'none' || input.topK <= 0 || !input.text.trim() || deps.recordIndex.size === 0) return [];
  const k = Math.min(input.topK, deps.recordIndex.size);
  const dense = mode === 'lexical' ? [] : deps.recordIndex.search((await embedBatch(deps.embedder, [input.text]))[0]!, k);
  const words = mode === 'dense' ? [] : deps.lexical!.index.search(input.text, k).map((h) => ({ id: deps.lexical!.ids[h.row]!, score: h.score }));
  const hits = mode === 'hybrid' ? fuse(dense, words, k) : mode === 'lexical' ? words : dense;
  return hits.flatMap((h) => retrievedOf(deps.records, h.id, h.score));
}

function fuse(a: readonly { id: string; score: number }[], b: readonly { id: string; score: number }[], k: number): { id: string; score: number }[] {
  // Each list's cosines on its own scale (a hashed embedding's run near 0.6, TF-IDF's near 0.2): divided by its best.
  const sum = new Map<string, number>();
  for (const list of [a, b]) {
    const top = list[0]?.score ?? 0;
    if (top > 0) for (const h of list) sum.set(h.id, (sum.get(h.id) ?? 0) + h.score / top);
  }
  return [...sum].map(([id, score]) => ({ id, score })).sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).slice(0, k);
}
