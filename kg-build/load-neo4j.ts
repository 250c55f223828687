import type { GraphStore, Row } from '../src/adapters/neo4j/graph-store.js';
import type { DiagnosticKg, KgBuildInfo, ManifestationEdge, NotesMentionEdge } from '../src/domain/kg.js';
import { stableHash } from './text.js';
import { WriteWindow } from './write-window.js';
import { shippedVoice } from '../src/presentation/shipped-voice.js';
import { keyDifferenceText } from '../src/presentation/key-difference-text.js';

export const RECORD_EDGES_PER_TX = 20_000;
export const RECORDS_IN_FLIGHT = 2;

/**
 * Loads a checked KG into Neo4j (its schema, cypher/schema.cypher, created by prepareLoad): every tier as
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
  /** Rows per UNWIND batch (one transaction each). */
  batchSize: number;
  /**
   * `:Record` batches are also cut at this many relationships (default 20,000): a record
   * carries ~20, and Neo4j's commit-time work and garbage grow with the transaction, so
   * 5,000 records (100k edges) per transaction cost ~1.7x the CPU per edge of 1,000
   * (docs/benchmarks.md, "Neo4j load rate").
   */
  recordEdgesPerTx?: number;
  /** `:Record` transactions in flight at once (default 2; write-window.ts says why). */
  recordsInFlight?: number;
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

/** The named queries a load runs (cypher/build/), in order. */
export const LOAD_QUERIES = [
  'start-build', 'merge-categories', 'merge-subcategories', 'merge-diseases', 'merge-aliases', 'merge-ehr-features', 'merge-augmented-features',
  'merge-manifestations', 'merge-notes-mentions', 'merge-key-differences', 'merge-records', 'complete-build', 'delete-stale-relationships', 'delete-stale-nodes', 'counts',
].map((q) => `build/${q}`);

/**
 * What a load needs of the server before its first batch: the schema, and a plan for every
 * load query. A freshly started Neo4j spends 0.5-3.5 s planning each query the first time
 * (10k records: 17.7 s -> 12.1 s for the load after it, docs/benchmarks.md); the build runs
 * this while it scans the records, so that time is off the load's path.
 */
export async function prepareLoad(graph: GraphStore): Promise<void> {
  await graph.writeAll('schema');
  for (const q of LOAD_QUERIES) await graph.explain(q);
}

/** Expects the server prepared (`prepareLoad`: the schema in place); the build does that while it scans. */
export async function loadNeo4j(graph: GraphStore, input: LoadInput, opts: LoadOptions): Promise<LoadResult> {
  const { kg, build } = input;
  const buildId = build.id;
  let batches = 0;
  // One step's rows, cut into batches of `batchSize` rows (or `maxCost` by `cost`), written
  // one transaction each: one at a time, or through `window` (records only: their batches
  // touch disjoint records, the KG tiers MERGE shared nodes and stay sequential).
  const run = async (step: string, rows: Iterable<Row> | AsyncIterable<Row>, how: { shape?: (batch: Row[]) => Row; cost?: (r: Row) => number; maxCost?: number; window?: WriteWindow } = {}) => {
    const shape = how.shape ?? ((b: Row[]) => ({ rows: b }));
    const write = async (batch: Row[]) => {
      opts.signal?.throwIfAborted();
      await graph.write(`build/${step}`, { ...shape(batch), buildId });
      batches++;
      await opts.onBatch?.({ step, batch: batches, rows: batch.length });
    };
    let batch: Row[] = [];
    let cost = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const full = batch;
      batch = [];
      cost = 0;
      if (how.window) await how.window.submit(() => write(full));
      else await write(full);
    };
    for await (const r of rows) {
      batch.push(r);
      cost += how.cost?.(r) ?? 0;
      if (batch.length >= opts.batchSize || (how.maxCost !== undefined && cost >= how.maxCost)) await flush();
    }
    await flush();
    await how.window?.drain();
  };

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
  // `label`: the clinical label Neo4j Browser shows (style.grass caption); `text` stays the source's own wording, which matching reads.
  const withDegree = (kind: string) => kg.features.filter((f) => f.kind === kind).map((f) => ({ ...f, label: shippedVoice().label(f), degree: input.degree.get(f.id) ?? 0 }));
  await run('merge-ehr-features', withDegree('ehr'));
  await run('merge-augmented-features', withDegree('augmented'));
  await run('merge-manifestations', kg.manifestations as unknown as Row[], { shape: (b) => manifestationBatch(b as unknown as ManifestationEdge[]) });
  await run('merge-notes-mentions', (kg.notesMentions ?? []) as unknown as Row[], { shape: (b) => edgeBatch(b as unknown as NotesMentionEdge[], (m) => ({ count: m.count })) });
  const featureOf = new Map(kg.features.map((f) => [f.id, f]));
  // `label`: the key difference as the Browser shows it, its feature named by the clinical label.
  await run('merge-key-differences', kg.keyDifferences.map((k) => ({ ...k, label: keyDifferenceText(k.text, (k.featureId === null ? null : featureOf.get(k.featureId) ?? null)) })) as unknown as Row[]);
  if (input.records) {
    await run('merge-records', input.records as AsyncIterable<unknown> as AsyncIterable<Row>, {
      shape: (b) => recordBatch(b as unknown as RecordRow[]),
      cost: (r) => 1 + (r as unknown as RecordRow).featureIds.length, // DIAGNOSED_AS + HAS_FEATURE edges
      maxCost: opts.recordEdgesPerTx ?? RECORD_EDGES_PER_TX,
      window: new WriteWindow(opts.recordsInFlight ?? RECORDS_IN_FLIGHT),
    });
  }
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

/** A batch's distinct ids in first-seen order, each row pointing at them by position. */
class IdPositions {
  private readonly at = new Map<string, number>();
  of(id: string): number {
    let i = this.at.get(id);
    if (i === undefined) this.at.set(id, (i = this.at.size));
    return i;
  }
  get ids(): string[] {
    return [...this.at.keys()];
  }
}

/**
 * Parameters of one `merge-records` batch: the batch's distinct feature and disease ids once,
 * and per row their positions in those lists (the query looks each id up once per batch).
 */
export function recordBatch(rows: readonly RecordRow[]): { rows: Row[]; featureIds: string[]; diseaseIds: string[] } {
  const features = new IdPositions();
  const diseases = new IdPositions();
  const shaped = rows.map((r) => ({ id: r.id, diagnosis: r.diagnosis, d: diseases.of(r.diseaseId), f: r.featureIds.map((f) => features.of(f)) }));
  return { rows: shaped, featureIds: features.ids, diseaseIds: diseases.ids };
}

/** Parameters of one `merge-manifestations` batch, shaped like recordBatch (ids once, rows by position). */
export function manifestationBatch(rows: readonly ManifestationEdge[]): { rows: Row[]; featureIds: string[]; diseaseIds: string[] } {
  return edgeBatch(rows, (m) => ({ prevalence: m.prevalence, count: m.count, source: m.source }));
}

/** A disease → feature edge batch (merge-manifestations, merge-notes-mentions): each row's ids by position, then its own properties. */
function edgeBatch<E extends { diseaseId: string; featureId: string }>(rows: readonly E[], props: (e: E) => Row): { rows: Row[]; featureIds: string[]; diseaseIds: string[] } {
  const features = new IdPositions();
  const diseases = new IdPositions();
  const shaped = rows.map((e) => ({ d: diseases.of(e.diseaseId), f: features.of(e.featureId), ...props(e) }));
  return { rows: shaped, featureIds: features.ids, diseaseIds: diseases.ids };
}

export async function readCounts(graph: GraphStore): Promise<Record<string, number>> {
  const [row] = await graph.read('build/counts');
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
}
