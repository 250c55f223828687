import { decompose } from '../../src/clinical-text/decompose.js';
import type { TextEmbedder } from '../../src/query/embed.js';
import { matchFeatures } from '../../src/query/match-features.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import type { QueryService } from '../../src/query/query-service.js';
import { retrieveRecords } from '../../src/query/retrieve-records.js';
import { voteSubcategory } from '../../src/query/vote-subcategory.js';
import { embedAll } from '../../kg-build/vectors.js';
import { referenceGraph, referenceQuery, type ReferenceData } from '../reference-path.js';
import { round, summarize } from './stats.js';

/**
 * dxgraph's matching + voting + retrieval (the real stages, in process, on the loaded
 * query service) against the reference path (bench/reference-path.ts), on the same
 * queries, same data, same parameters. Decomposition is done once per query, outside
 * both timings. The reference runs on the first `referenceQueries` queries only (it
 * rebuilds a flat index over all records per query).
 */
export interface SideBySideResult {
  queries: number;
  referenceQueries: number;
  dxgraphMs: ReturnType<typeof summarize> & { match: number; vote: number; retrieve: number };
  referenceMs: ReturnType<typeof summarize> & { match: number; vote: number; retrieve: number };
  /** mean reference / mean dxgraph over the queries both ran. */
  speedup: number;
  /** Share of queries where both chose the same subcategory. */
  sameWinner: number;
  /** Mean overlap of the top-k retrieved record ids. */
  retrievedOverlap: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export async function sideBySide(o: { service: QueryService; embedder: TextEmbedder; texts: string[]; recordIds: string[]; recordVectors: Float32Array; dim: number; referenceQueries: number }): Promise<SideBySideResult> {
  const s = o.service;
  const opts = DEFAULT_OPTIONS;
  const deps = { snapshot: s.snapshot, embedder: o.embedder, featureIndex: s.artifacts.featureIndex, recordIndex: s.artifacts.recordIndex, records: s.artifacts.records };
  const data: ReferenceData = {
    snapshot: s.snapshot, embedder: o.embedder, dim: o.dim, recordIds: o.recordIds, recordVectors: o.recordVectors,
    featureVectors: await embedAll(o.embedder.embeddings as never, s.snapshot.features.map((f) => f.text)),
    graph: referenceGraph(s.snapshot),
  };
  const dx = { total: [] as number[], match: [] as number[], vote: [] as number[], retrieve: [] as number[] };
  const ref = { total: [] as number[], match: [] as number[], vote: [] as number[], retrieve: [] as number[] };
  let same = 0;
  let overlap = 0;
  for (const [qi, text] of o.texts.entries()) {
    const { findings } = decompose({ text, findings: [] });
    const t0 = performance.now();
    const { matches } = await matchFeatures(deps, { findings, topM: opts.topM, threshold: opts.matchThreshold });
    const t1 = performance.now();
    const vote = voteSubcategory(s.snapshot, { matches, candidates: opts.candidateSubcategories });
    const t2 = performance.now();
    const retrieved = await retrieveRecords(deps, { text, topK: opts.topK });
    const t3 = performance.now();
    dx.match.push(t1 - t0), dx.vote.push(t2 - t1), dx.retrieve.push(t3 - t2), dx.total.push(t3 - t0);
    if (qi >= o.referenceQueries) continue;
    const r = await referenceQuery(data, { text, findings, topM: opts.topM, threshold: opts.matchThreshold, topK: opts.topK });
    ref.match.push(r.ms.match), ref.vote.push(r.ms.vote), ref.retrieve.push(r.ms.retrieve), ref.total.push(r.ms.total);
    if (r.winner === (vote.winner?.subcategoryId ?? null)) same++;
    const ids = new Set(retrieved.map((x) => x.id));
    overlap += r.retrieved.filter((id) => ids.has(id)).length / Math.max(1, r.retrieved.length);
  }
  const n = ref.total.length;
  const parts = (x: typeof dx) => ({ ...summarize(x.total), match: round(mean(x.match)), vote: round(mean(x.vote)), retrieve: round(mean(x.retrieve)) });
  return {
    queries: dx.total.length, referenceQueries: n, dxgraphMs: parts(dx), referenceMs: parts(ref),
    speedup: round(mean(ref.total) / mean(dx.total.slice(0, n)), 1), sameWinner: round(same / Math.max(1, n), 3), retrievedOverlap: round(overlap / Math.max(1, n), 3),
  };
}
