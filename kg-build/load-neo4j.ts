import type { GraphStore, Row } from '../src/adapters/neo4j/graph-store.js';
import type { DiagnosticKg, KgBuildInfo } from '../src/domain/kg.js';
import { stableHash } from './text.js';

/**
 * Loads a checked KG into Neo4j: schema first (cypher/schema.cypher), then every tier as
 * batched `UNWIND $rows ... MERGE` named queries (cypher/build/). Ids are stable and every
 * KG write is a MERGE, so a second load of the same KG changes nothing and an interrupted
 * load is finished by running it again; `:Record` nodes (the bulk) skip records this build
 * already wrote and CREATE the edges of the others (merge-records.cypher). Nodes and edges of other builds are swept only
 * after this build is marked complete.
 */
export interface RecordRow {
  id: string;
  diagnosis: string;
  diseaseId: string;
  featureIds: string[];
}

export interface LoadInput {
  kg: DiagnosticKg;
  /** feature id -> number of diseases with it (graph-checks.ts) */
  degree: ReadonlyMap<string, number>;
  build: Omit<KgBuildInfo, 'status' | 'finishedAt'>;
  /** Optional `:Record` nodes (--records-in-graph), streamed. */
  records?: AsyncIterable<RecordRow> | null;
}

export interface LoadProgress {
  step: string;
  batch: number;
  rows: number;
}

export interface LoadOptions {
  batchSize: number;
  /** Aborting stops between batches (what a crash mid-load looks like, for tests). */
  signal?: AbortSignal;
  onBatch?: (p: LoadProgress) => void | Promise<void>;
}

export interface LoadResult {
  batches: number;
  stale: { nodes: number; relationships: number };
  /** Counts read back from Neo4j after the sweep. */
  counts: Record<string, number>;
}

export async function loadNeo4j(graph: GraphStore, input: LoadInput, opts: LoadOptions): Promise<LoadResult> {
  const { kg, build } = input;
  const buildId = build.id;
  let batches = 0;
  const run = async (step: string, rows: Iterable<Row> | AsyncIterable<Row>, shape: (batch: Row[]) => Row = (b) => ({ rows: b })) => {
    let batch: Row[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      opts.signal?.throwIfAborted();
      await graph.write(`build/${step}`, { ...shape(batch), buildId });
      batches++;
      await opts.onBatch?.({ step, batch: batches, rows: batch.length });
      batch = [];
    };
    for await (const r of rows) {
      batch.push(r);
      if (batch.length >= opts.batchSize) await flush();
    }
    await flush();
  };

  await graph.writeAll('schema');
  await graph.write('build/start-build', {
    id: buildId,
    source: build.source,
    embedder: build.embedder,
    embeddingDim: build.embeddingDim,
    params: JSON.stringify(build.params),
    counts: JSON.stringify(build.counts),
    startedAt: build.startedAt,
  });
  await run('merge-categories', kg.categories as unknown as Row[]);
  await run('merge-subcategories', kg.subcategories as unknown as Row[]);
  await run('merge-diseases', kg.diseases as unknown as Row[]);
  await run('merge-aliases', aliasRows(kg));
  const withDegree = (kind: string) => kg.features.filter((f) => f.kind === kind).map((f) => ({ ...f, degree: input.degree.get(f.id) ?? 0 }));
  await run('merge-ehr-features', withDegree('ehr'));
  await run('merge-augmented-features', withDegree('augmented'));
  await run('merge-manifestations', kg.manifestations as unknown as Row[]);
  await run('merge-key-differences', kg.keyDifferences as unknown as Row[]);
  if (input.records) await run('merge-records', input.records as AsyncIterable<unknown> as AsyncIterable<Row>, (b) => recordBatch(b as unknown as RecordRow[]));
  opts.signal?.throwIfAborted();
  await graph.write('build/complete-build', { id: buildId, finishedAt: new Date().toISOString(), counts: JSON.stringify(build.counts) });

  const sweep = async (name: string) => {
    let total = 0;
    for (;;) {
      const [row] = await graph.write(`build/${name}`, { buildId, limit: opts.batchSize });
      const n = Number(row?.deleted ?? 0);
      total += n;
      if (n === 0) return total;
    }
  };
  const relationships = await sweep('delete-stale-relationships');
  const nodes = await sweep('delete-stale-nodes');
  return { batches, stale: { nodes, relationships }, counts: await readCounts(graph) };
}

export function aliasRows(kg: DiagnosticKg): Row[] {
  return kg.diseases.flatMap((d) => d.aliases.map((name) => ({ id: `alias:${stableHash(name)}`, name, diseaseId: d.id })));
}

/**
 * Parameters of one `merge-records` batch: the batch's distinct feature and disease ids once,
 * and per row their positions in those lists (the query looks each id up once per batch).
 */
export function recordBatch(rows: readonly RecordRow[]): { rows: Row[]; featureIds: string[]; diseaseIds: string[] } {
  const featureIds = new Map<string, number>();
  const diseaseIds = new Map<string, number>();
  const at = (ids: Map<string, number>, id: string) => {
    let i = ids.get(id);
    if (i === undefined) ids.set(id, (i = ids.size));
    return i;
  };
  const shaped = rows.map((r) => ({ id: r.id, diagnosis: r.diagnosis, d: at(diseaseIds, r.diseaseId), f: r.featureIds.map((f) => at(featureIds, f)) }));
  return { rows: shaped, featureIds: [...featureIds.keys()], diseaseIds: [...diseaseIds.keys()] };
}

export async function readCounts(graph: GraphStore): Promise<Record<string, number>> {
  const [row] = await graph.read('build/counts');
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
}
