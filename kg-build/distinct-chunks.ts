/**
 * The training records' chunks (src/gate/chunk-index.ts: one sentence each, id
 * `<recordId>#<n>`) grouped by distinct text, computed ONCE per build for both the chunk
 * index (chunk-index-stage.ts) and the gate's retrieval probe (gate-probe.ts), which used to
 * segment all records twice. Record renderings repeat the same finding lines (1.79M chunks of
 * 100k generated records are 1.6k texts), so segmentation is memoised per line:
 * segmentSentences treats every line on its own, so a text's units are its lines' units in
 * order (test/unit/kg-build-distinct-chunks.test.ts checks equality with recordChunks).
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { chunkId } from '../src/gate/chunk-index.js';
import { segmentSentences } from '../src/gate/segment-sentences.js';
import { embedAll } from './vectors.js';

export interface DistinctChunks {
  /** Distinct chunk texts, in first-seen order (records in input order, sentences in order). */
  texts: string[];
  /** Per text: the ids of every chunk holding it, in chunk order. */
  members: string[][];
  /** Per text: the record id of each of those chunks (aligned with `members`). */
  holders: string[][];
  /** All chunks, duplicates included. */
  chunkCount: number;
}

export type EmbeddedChunks = DistinctChunks & { vectors: Float32Array[] };

const LINE_BREAK = /\r\n|\r|\n|\u2028|\u2029/; // segmentSentences' own line split
const MAX_CACHED_LINES = 200_000; // free-text sources may never repeat a line: bound the memo

/** segmentSentences(text), memoised per line. */
export function lineMemoSegmenter(): (text: string) => string[] {
  const memo = new Map<string, string[]>();
  return (text) => {
    const out: string[] = [];
    for (const line of text.split(LINE_BREAK)) {
      let units = memo.get(line);
      if (units === undefined) {
        units = segmentSentences(line);
        if (memo.size >= MAX_CACHED_LINES) memo.clear();
        memo.set(line, units);
      }
      for (const u of units) out.push(u);
    }
    return out;
  };
}

export function distinctChunks(records: Iterable<{ id: string; text: string }>): DistinctChunks {
  const segment = lineMemoSegmenter();
  const at = new Map<string, number>();
  const texts: string[] = [];
  const members: string[][] = [];
  const holders: string[][] = [];
  let chunkCount = 0;
  for (const r of records) {
    segment(r.text).forEach((text, n) => {
      let u = at.get(text);
      if (u === undefined) {
        u = texts.length;
        at.set(text, u);
        texts.push(text);
        members.push([]);
        holders.push([]);
      }
      members[u]!.push(chunkId(r.id, n));
      holders[u]!.push(r.id);
      chunkCount++;
    });
  }
  return { texts, members, holders, chunkCount };
}

export async function embedDistinctChunks(records: Iterable<{ id: string; text: string }>, embeddings: Embeddings): Promise<EmbeddedChunks> {
  const chunks = distinctChunks(records);
  return { ...chunks, vectors: await embedAll(embeddings, chunks.texts) };
}
