/**
 * Retrieval for the full path, in one of two modes (`options.retrieval`):
 *   'record' (default) — MedRAG whole-record retrieval (retrieve-records.ts);
 *   'find' — FIND §3.3.1 chunk retrieval (src/gate/find-retrieval.ts): the input's A and B
 *            sentences each retrieve their top-m record chunks, records are re-ranked by how
 *            many of their chunks came back, top-k kept.
 * FIND needs sentence labels: the gate's when it ran, else the build's classifier labels the
 * sentences here; with no classifier at all every sentence queries (FIND's fallback).
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { InputError } from '../errors.js';
import type { ChunkIndex } from '../gate/chunk-index.js';
import { findRetrieve, type FindRetrievalOptions } from '../gate/find-retrieval.js';
import { createGate } from '../gate/gate.js';
import { segmentSentences } from '../gate/segment-sentences.js';
import type { SentenceClassifier } from '../gate/sentence-classifier.js';
import { DEFAULT_GATE_PARAMS, type GateTrace, type SentenceLabel } from '../gate/types.js';
import type { DiagnoseOptions, RetrievedRecord } from './contracts.js';
import { retrievedOf, retrieveRecords, type RetrieveRecordsDeps } from './retrieve-records.js';

export interface FindRetrievalDeps {
  chunkIndex: ChunkIndex;
  embeddings: Embeddings;
  classifier: SentenceClassifier | null;
  options?: Partial<FindRetrievalOptions>;
}

export interface RetrieveInput {
  /** The query text (the description, or the findings one per line). */
  text: string;
  topK: number;
  mode: NonNullable<DiagnoseOptions['retrieval']>;
  gate: GateTrace | null;
  /** A written description, not coded findings joined (retrieve-records.ts "auto"). */
  fromText?: boolean;
}

export async function retrieveForQuery(deps: RetrieveRecordsDeps & { find: FindRetrievalDeps | null }, input: RetrieveInput): Promise<RetrievedRecord[]> {
  if (input.mode === 'record') return retrieveRecords(deps, { text: input.text, topK: input.topK, fromText: input.fromText ?? false });
  if (!deps.find) throw new InputError('options.retrieval: "find" needs a build with a chunk index (rebuild with this version)', { field: 'options.retrieval' });
  const sentences = input.gate?.sentences ?? (await labelSentences(deps.find, input.text));
  const found = await findRetrieve(sentences, { embedder: deps.find.embeddings, chunkIndex: deps.find.chunkIndex }, { ...deps.find.options, topK: input.topK });
  // FIND's order (chunk counts) is kept; the similarity shown is the record's best chunk.
  return found.records.flatMap((r) => retrievedOf(deps.records, r.recordId, r.bestSimilarity));
}

async function labelSentences(find: FindRetrievalDeps, text: string): Promise<{ text: string; label: SentenceLabel }[]> {
  if (!find.classifier) return segmentSentences(text).map((s) => ({ text: s, label: 'B' as const }));
  return (await createGate({ classifier: find.classifier, embedder: find.embeddings, params: DEFAULT_GATE_PARAMS }).assess(text)).sentences;
}
