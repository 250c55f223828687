import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { z } from 'zod';
import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import type { VectorIndexLike } from '../adapters/faiss/types.js';
import type { CategoryNode, DiseaseNode, FeatureNode, ManifestationEdge, NotesMentionEdge, SubcategoryNode } from '../domain/kg.js';
import { buildDir, currentPointer, manifestPath, type BuildManifest } from '../domain/artifacts.js';
import { ArtifactError, ConfigError, errorMessage } from '../errors.js';
import { buildSnapshot, type KgSnapshot } from './kg-snapshot.js';
import type { RecordRow } from './retrieve-records.js';
import type { GateArtifacts } from './load-gate.js';
import { LexicalIndex } from './lexical-index.js';
import { readLexicalIndex } from './lexical-index-file.js';
import type { LexicalRecords } from './retrieve-records.js';
import type { PosteriorCalibration } from '../calibration/temperature.js';

/**
 * Start-up loading for the query side: the KG is read from Neo4j ONCE into a KgSnapshot
 * (five named queries), and the build's artifacts (manifest, feature and record indexes)
 * are opened from DXGRAPH_DATA_DIR. Per-query work then never re-reads the whole graph.
 */
export async function loadSnapshot(graph: Pick<GraphStore, 'read'>): Promise<KgSnapshot> {
  const [build] = await graph.read('query/snapshot-build');
  const [h] = await graph.read('query/snapshot-hierarchy');
  const features = (await graph.read('query/snapshot-features')) as unknown as FeatureNode[];
  const manifestations = (await graph.read('query/snapshot-manifestations')) as unknown as ManifestationEdge[];
  const notesMentions = ((await graph.read('query/snapshot-notes-mentions')) as unknown as NotesMentionEdge[]).map((m) => ({ ...m, count: Number(m.count) }));
  const counts = (xs: unknown): number[] | null => (Array.isArray(xs) ? xs.map(Number) : null);
  const diseases = ((h?.diseases ?? []) as DiseaseNode[]).map((d) => ({
    ...d, recordCount: Number(d.recordCount ?? 0), ageBands: counts(d.ageBands), sexCounts: counts(d.sexCounts), declaredEvidence: Array.isArray(d.declaredEvidence) ? d.declaredEvidence.map(String) : null,
    knownEvidence: Array.isArray(d.knownEvidence) ? d.knownEvidence.map(String) : null, knownRates: counts(d.knownRates), knowledgeSource: d.knowledgeSource ?? null,
    notedRecords: d.notedRecords === null || d.notedRecords === undefined ? null : Number(d.notedRecords),
  }));
  return buildSnapshot(
    { categories: (h?.categories ?? []) as CategoryNode[], subcategories: (h?.subcategories ?? []) as SubcategoryNode[], diseases, features, manifestations, notesMentions },
    build ? String(build.id) : null,
  );
}

export interface QueryArtifacts {
  manifest: BuildManifest;
  featureIndex: VectorIndexLike;
  recordIndex: VectorIndexLike;
  records: Map<string, RecordRow>;
  /** The records' lexical index with its rows' ids (records.jsonl order); absent in older builds. */
  lexical?: LexicalRecords;
  /** The gate's classifier, calibrated thresholds and FIND chunk index (load-gate.ts); absent = none. */
  gate?: GateArtifacts;
  /** The build's posterior calibration (src/calibration/calibration-file.ts); absent/null = none. */
  calibration?: PosteriorCalibration | null;
}

/** Opens a FAISS index file (with its id sidecar); the faiss adapter's `FaissVectorIndex.load` in production. */
export type IndexOpener = (indexPath: string, idsPath: string | null) => Promise<VectorIndexLike>;

export interface OpenArtifactsInput {
  dataDir: string;
  /** The configured embedder's id: a build made with another embedder is refused. */
  embedderId: string;
  openIndex: IndexOpener;
}

const SplitSideSchema = z.object({ records: z.number().int().nonnegative(), patients: z.number().int().nonnegative() });

const ManifestSchema = z.object({
  buildId: z.string().min(1),
  source: z.string(),
  embedder: z.string().min(1),
  embeddingDim: z.number().int().positive(),
  recordIndex: z.object({ kind: z.enum(['flat', 'ivf', 'hnsw']), size: z.number().int().nonnegative(), file: z.string().min(1), rows: z.string().min(1) }),
  featureIndex: z.object({ size: z.number().int().nonnegative(), file: z.string().min(1), ids: z.string().min(1) }),
  recordIdsFile: z.string(),
  lexicalIndex: z.object({ file: z.string().min(1), rows: z.number().int().nonnegative(), terms: z.number().int().nonnegative(), noteRecords: z.number().int().nonnegative() }).optional(),
  createdAt: z.string(),
  chunkIndex: z.object({ size: z.number().int().nonnegative(), texts: z.number().int().nonnegative(), file: z.string().min(1), ids: z.string().min(1), groups: z.string().min(1), membersPerText: z.number().int().positive().optional() }).optional(),
  gate: z.object({ classifier: z.string().min(1), metrics: z.string(), thresholds: z.object({ theta1: z.number(), theta2: z.number() }).nullable() }).optional(),
  // The held-out share the build was made with (`dxgraph eval` takes its test side back).
  split: z.object({
    testFraction: z.number().gt(0).lt(1), seed: z.number().int(), stratify: z.boolean(), unit: z.enum(['patient', 'record', 'mixed']),
    train: SplitSideSchema, test: SplitSideSchema, patientsFile: z.string().min(1).nullable(),
  }).optional(),
  calibration: z.object({ file: z.string().min(1), basis: z.string().optional() }).optional(),
  uncalibrated: z.string().optional(),
});

// `summary`: the record in the clinical voice (presentation/record-summary.ts); absent in builds before it.
const RecordRowSchema = z.object({ id: z.string(), diagnosis: z.string(), diseaseId: z.string().nullable().default(null), text: z.string(), summary: z.string().optional(), notes: z.boolean().optional() });

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new ArtifactError(path, `${what} missing or unreadable at ${path}: ${errorMessage(e)}`, { cause: e });
  }
}

/**
 * records.jsonl, one validated row per line, read as a stream: at 1M records the file is ~1 GB,
 * past V8's longest string, so reading it whole failed ("Invalid string length"). The query
 * service keeps the rows; eval's leakage check keeps only ids and digests (eval/indexed-records-file.ts).
 */
export async function* recordRowsOf(rowsPath: string): AsyncGenerator<RecordRow> {
  let i = 0;
  try {
    const lines = createInterface({ input: createReadStream(rowsPath, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      i++;
      if (!line.trim()) continue;
      let row: z.infer<typeof RecordRowSchema>;
      try {
        row = RecordRowSchema.parse(JSON.parse(line));
      } catch (e) {
        throw new ArtifactError(rowsPath, `record rows ${rowsPath}:${i} is corrupt`, { cause: e });
      }
      yield row;
    }
  } catch (e) {
    if (e instanceof ArtifactError) throw e;
    throw new ArtifactError(rowsPath, `record rows missing or unreadable at ${rowsPath}: ${errorMessage(e)}`, { cause: e });
  }
}

async function readRecordRows(rowsPath: string): Promise<Map<string, RecordRow>> {
  const records = new Map<string, RecordRow>();
  for await (const row of recordRowsOf(rowsPath)) records.set(row.id, row);
  return records;
}

export async function readManifest(dataDir: string): Promise<BuildManifest> {
  const pointer = currentPointer(dataDir);
  const buildId = (await readText(pointer, 'no current build (run `dxgraph build` first):')).trim();
  const path = manifestPath(dataDir, buildId);
  let json: unknown;
  try {
    json = JSON.parse(await readText(path, 'build manifest'));
  } catch (e) {
    if (e instanceof ArtifactError) throw e;
    throw new ArtifactError(path, `build manifest ${path} is not valid JSON`, { cause: e });
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) throw new ArtifactError(path, `build manifest ${path} is corrupt: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

async function openChecked(open: IndexOpener, path: string, idsPath: string | null, expect: { dim: number; size: number }): Promise<VectorIndexLike> {
  let index: VectorIndexLike;
  try {
    index = await open(path, idsPath);
  } catch (e) {
    if (e instanceof ArtifactError) throw e;
    throw new ArtifactError(path, `index file ${path} is missing or corrupt: ${errorMessage(e)}`, { cause: e });
  }
  if (index.dim !== expect.dim) throw new ArtifactError(path, `index file ${path} has dimension ${index.dim}, manifest says ${expect.dim}`);
  if (index.size !== expect.size) throw new ArtifactError(path, `index file ${path} holds ${index.size} vectors, manifest says ${expect.size}`);
  return index;
}

export async function openArtifacts(input: OpenArtifactsInput): Promise<QueryArtifacts> {
  const manifest = await readManifest(input.dataDir);
  if (manifest.embedder !== input.embedderId) {
    throw new ConfigError(
      `DXGRAPH_EMBEDDER: build ${manifest.buildId} was made with embedder "${manifest.embedder}" but "${input.embedderId}" is configured; configure the same embedder or rebuild`,
    );
  }
  const dir = buildDir(input.dataDir, manifest.buildId);
  const expectF = { dim: manifest.embeddingDim, size: manifest.featureIndex.size };
  const featureIndex = await openChecked(input.openIndex, join(dir, manifest.featureIndex.file), join(dir, manifest.featureIndex.ids), expectF);
  const recordIndex = await openChecked(input.openIndex, join(dir, manifest.recordIndex.file), join(dir, manifest.recordIdsFile), { dim: manifest.embeddingDim, size: manifest.recordIndex.size });
  const rowsPath = join(dir, manifest.recordIndex.rows);
  const records = await readRecordRows(rowsPath);
  if (!manifest.lexicalIndex) return { manifest, featureIndex, recordIndex, records };
  const lexicalPath = join(dir, manifest.lexicalIndex.file);
  if (manifest.lexicalIndex.rows !== records.size) throw new ArtifactError(lexicalPath, `lexical index of ${manifest.lexicalIndex.rows} records, ${rowsPath} holds ${records.size}`);
  const lexical = { index: new LexicalIndex(await readLexicalIndex(lexicalPath, records.size)), ids: [...records.keys()], fromNotes: manifest.lexicalIndex.noteRecords > 0 };
  return { manifest, featureIndex, recordIndex, records, lexical };
}
