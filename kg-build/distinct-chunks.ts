/**
 * The training records' chunks (src/gate/chunk-index.ts: one sentence each, id
 * `<recordId>#<n>`) grouped by distinct text, computed ONCE per build for both the chunk
 * index (chunk-index-stage.ts) and the gate's retrieval probe (gate-probe.ts), which used to
 * segment all records twice. Record renderings repeat the same finding lines (1.79M chunks of
 * 100k generated records are 1.6k texts), so segmentation is memoised per line:
 * segmentSentences treats every line on its own, so a text's units are its lines' units in
 * order (test/unit/kg-build-distinct-chunks.test.ts checks equality with recordChunks).
 *
 * Each text keeps the ids of its FIRST `membersPerText` chunks only (chunkCount still counts
 * them all). A top-m search expands texts into their chunks in that order and stops at m, and
 * the gate probe stops after its top-m records, so a chunk past the m-th of its text is never
 * returned for any m up to the cap (FIND's 100, the probe's 10 + 64 slack): the same answers.
 * Without the cap a 1M-record DDXPlus build holds ~18M chunk ids twice (ids and record ids) and
 * its chunks.groups.json (~800 MB) is past V8's longest string: the build died writing it.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { chunkId } from '../src/gate/chunk-index.js';
import { segmentSentences } from '../src/gate/segment-sentences.js';
import { embedAll } from './vectors.js';

export interface DistinctChunks {
  /** Distinct chunk texts, in first-seen order (records in input order, sentences in order). */
  texts: string[];
  /** Per text: the ids of the chunks holding it, in chunk order (the first MEMBERS_PER_TEXT). */
  members: string[][];
  /** Per text: the record id of each of those chunks (aligned with `members`). */
  holders: string[][];
  /** All chunks, duplicates included (also those past a text's MEMBERS_PER_TEXT). */
  chunkCount: number;
  /** The cap on `members` / `holders` per text. */
  membersPerText: number;
}

export type EmbeddedChunks = DistinctChunks & { vectors: Float32Array[] };

const LINE_BREAK = /\r\n|\r|\n|\u2028|\u2029/; // segmentSentences' own line split
const MAX_CACHED_LINES = 200_000; // free-text sources may never repeat a line: bound the memo
/** Chunk ids kept per distinct text: at least the largest top-m any search asks (FIND's topM is 100). */
export const MEMBERS_PER_TEXT = 1024;

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

export function distinctChunks(records: Iterable<{ id: string; text: string }>, membersPerText: number = MEMBERS_PER_TEXT): DistinctChunks {
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
      if (members[u]!.length < membersPerText) {
        members[u]!.push(chunkId(r.id, n));
        holders[u]!.push(r.id);
      }
      chunkCount++;
    });
  }
  return { texts, members, holders, chunkCount, membersPerText };
}

export async function embedDistinctChunks(records: Iterable<{ id: string; text: string }>, embeddings: Embeddings): Promise<EmbeddedChunks> {
  const chunks = distinctChunks(records);
  return { ...chunks, vectors: await embedAll(embeddings, chunks.texts) };
}
