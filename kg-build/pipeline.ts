import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import type { NamedEmbedder } from '../src/adapters/embeddings/index.js';
import type { BuildManifest } from '../src/domain/artifacts.js';
import type { DiagnosticKg } from '../src/domain/kg.js';
import type { NormalizedRecord } from '../src/domain/record.js';
import type { RecordSource } from '../src/sources/types.js';
import { aggregateHierarchy, type HierarchyRequest } from './aggregate-hierarchy.js';
import { augmentFeatures } from './augment-features.js';
import { buildIndexes, setCurrent, type IndexFactory, type IndexOptions } from './build-indexes.js';
import { clusterDiseases, type ClusterDiseasesOptions, type DiseaseClusters } from './cluster-diseases.js';
import { attachKnownEvidence } from './known-evidence.js';
import { attachDeclaredEvidence } from './declared-evidence.js';
import { decomposeFeatures, type DecomposeOptions } from './decompose-features.js';
import { exportGexf } from './export-graph.js';
import { gateArtifactsStage } from './gate-artifacts-stage.js';
import { checkKg } from './graph-checks.js';
import type { Hierarchy, HierarchySizes } from './hierarchy-types.js';
import type { ConceptNames } from './hierarchy-names.js';
import { llmHierarchy } from './hierarchy-llm.js';
import { importTriples } from './import-triples.js';
import { llmKeyDifferences } from './key-differences-llm.js';
import { statisticalKeyDifferences, type StatisticalKdOptions } from './key-differences.js';
import type { BuildLlm } from './llm-types.js';
import { loadNeo4j, prepareLoad, type LoadProgress, type LoadResult } from './load-neo4j.js';
import { assemble, kgCounts, recordRows, uniqueBy } from './assemble-kg.js';
import { NO_PROGRESS, type Progress } from './progress.js';
import { topFeatureLabels } from './profiles.js';
import { scanRecords, type RecordScan } from './scan-records.js';
import { embedUnit } from './vectors.js';
import { stableHash } from './text.js';
import type { GateStageOptions, GateStageOutcome } from './train-gate-stage.js';
import type { NoteReaderDeps } from '../src/clinical-text/read-notes.js';
import { emptyNotesReport, readRecordNotes, type ReadNotesReport } from './read-notes-stage.js';
import { createSplitTracker } from '../src/sources/split-tracker.js';
import { recordSplit } from './split-artifact.js';
import type { NotesSupportReport } from './notes-support.js';

/** Everything that shapes the KG; recorded on the KgBuild node and part of the build id. */
export interface BuildParams {
  hierarchy: HierarchyRequest;
  sizes: HierarchySizes;
  cluster: Partial<ClusterDiseasesOptions>;
  decompose: Partial<DecomposeOptions>;
  keyDifferences: Partial<StatisticalKdOptions>;
  index: Partial<IndexOptions>;
  batchSize: number;
  recordsInGraph: boolean;
  /** External (subject, relation, object) triples file (CSV/JSONL) imported as L4a. */
  triplesFile: string | null;
  split: { testFraction: number; seed: number; stratify?: boolean } | null;
  /** Gate training (sample size, calibration); absent = defaults (300 records). */
  gate?: Partial<GateStageOptions>;
}

export interface BuildServices {
  graph: GraphStore;
  embedder: NamedEmbedder;
  indexFactory: IndexFactory;
  llm: BuildLlm | null;
  progress?: Progress;
  /** Reads records' notes (issue 24); a loader is called at the first record with notes. Absent: notes are not read. */
  noteReader?: NoteReaderDeps | (() => Promise<NoteReaderDeps>) | null;
}

export interface BuildInput {
  source: RecordSource;
  dataDir: string;
  params: BuildParams;
  /**
   * Keeps a record in the build; others are never seen. `params.split` already keeps the train
   * part (by patient when the source names patients) and records it with the artifacts.
   */
  include?: (r: NormalizedRecord) => boolean;
  /** Interrupt the Neo4j load between batches (tests: a crash mid-load). */
  signal?: AbortSignal;
  onLoadBatch?: (p: LoadProgress) => void | Promise<void>;
  /** Also write the checked KG as GEXF here (not part of the build's identity). */
  exportGexf?: string | null;
  /** Canonical concept phrases (lexicon) for statistical hierarchy names; part of the build's identity. */
  conceptNames?: ConceptNames | null;
  /**
   * Where the KG goes beside the on-disk artifacts: 'neo4j' (default) loads it into services.graph;
   * 'memory' leaves Neo4j untouched and the KG only in the outcome (`kg`, for memory-snapshot.ts):
   * the calibration's fit KGs (src/calibration/cross-fit.ts), which a server on the same Neo4j must never see.
   */
  graphLoad?: 'neo4j' | 'memory';
}

export interface BuildOutcome {
  buildId: string;
  kg: DiagnosticKg;
  hierarchy: Hierarchy;
  clusters: DiseaseClusters;
  scan: Omit<RecordScan, 'features'> & { featureCount: number };
  manifest: BuildManifest;
  neo4j: { batches: number; stale: { nodes: number; relationships: number }; counts: Record<string, number> };
  timings: Record<string, number>;
  llmUsed: boolean;
  /** Rows of the triples file, and those whose subject named no disease of the build. */
  triples: { rows: number; unmatched: number };
  /** The gate stage: its manifest entry, or why it trained no classifier. */
  gate?: GateStageOutcome;
  /** What was read from notes: notes, findings, sections left out, identifiers scrubbed, emergent concepts. */
  notes: ReadNotesReport & { emergent: { candidates: number; kept: number }; support: NotesSupportReport };
}

/** A build kept out of Neo4j (`graphLoad: 'memory'`): no load, so no load report. */
export type MemoryBuildOutcome = Omit<BuildOutcome, 'neo4j'> & { neo4j: null };

export function runBuild(input: BuildInput & { graphLoad: 'memory' }, services: BuildServices): Promise<MemoryBuildOutcome>;
export function runBuild(input: BuildInput & { graphLoad?: 'neo4j' }, services: BuildServices): Promise<BuildOutcome>;
export async function runBuild(input: BuildInput, services: BuildServices): Promise<BuildOutcome | MemoryBuildOutcome> {
  const { params } = input;
  const toNeo4j = (input.graphLoad ?? 'neo4j') === 'neo4j';
  const progress = services.progress ?? NO_PROGRESS;
  const embeddings = services.embedder.embeddings;
  const timings: Record<string, number> = {};
  const timed = async <T>(stage: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings[stage] = Math.round(performance.now() - t0);
    }
  };

  await mkdir(join(input.dataDir, 'builds'), { recursive: true });
  const split = params.split ? createSplitTracker(params.split) : null;
  const given = input.include;
  const include = split ? (r: NormalizedRecord) => split.part(r) === 'train' && (given?.(r) ?? true) : given;
  const spoolPath = join(input.dataDir, 'builds', `.spool-${process.pid}-${Date.now()}.jsonl`);
  // Neo4j creates the schema and plans the load's queries while this process scans (settled:
  // a failure is thrown where the load would start, never left unhandled).
  const preparing = toNeo4j ? timed('neo4jPrepare', () => prepareLoad(services.graph)).then(() => null, (error: unknown) => ({ error })) : Promise.resolve(null);
  try {
    progress.start('scan', null);
    const notesReport = emptyNotesReport();
    const records = services.noteReader ? readRecordNotes(input.source.records(), services.noteReader, notesReport, include) : input.source.records();
    const scan = await timed('scan', () => scanRecords({ records, spoolPath, ...(include ? { include } : {}), onRecord: (n) => n % 500 === 0 && progress.update(n) }));
    progress.stop();
    const declared = input.source.declaredEvidence ? await input.source.declaredEvidence() : null;
    const knowledge = input.source.diseaseKnowledge ? await input.source.diseaseKnowledge() : null;
    const clustered = attachDeclaredEvidence(await timed('cluster', () => clusterDiseases({ diagnoses: scan.diagnoses, embeddings }, params.cluster)), declared);
    const clusters = attachKnownEvidence(clustered, knowledge);
    const ehr = await timed('decompose', () => decomposeFeatures({ scan, clusters, embeddings, noteKeys: notesReport.keys, codedKeys: notesReport.codedKeys }, params.decompose));
    const base = { diseases: clusters.diseases, features: ehr.features, manifestations: ehr.manifestations };
    const llm = services.llm;
    const hierarchy = await timed('hierarchy', () =>
      aggregateHierarchy(base, { mode: params.hierarchy, sizes: params.sizes, names: input.conceptNames ?? null, ...(llm ? { llm: (i, s) => llmHierarchy({ ...i, llm, embeddings }, s) } : {}) }),
    );
    let triples = { rows: 0, unmatched: 0 };
    const augmented = await timed('augment', async () => {
      const fromLlm = llm ? await augmentFeatures({ diseases: clusters.diseases, llm, known: topFeatureLabels(ehr.features, ehr.manifestations, 8) }) : { features: [], manifestations: [] };
      const fromTriples = params.triplesFile ? await importTriples({ path: params.triplesFile, diseases: clusters.diseases }) : { features: [], manifestations: [], rows: 0, unmatched: 0 };
      triples = { rows: fromTriples.rows, unmatched: fromTriples.unmatched };
      // The same phrase from the LLM and a triples file is one node and one edge (first wins).
      return { features: uniqueBy([...fromLlm.features, ...fromTriples.features], (f) => f.id), manifestations: uniqueBy([...fromLlm.manifestations, ...fromTriples.manifestations], (m) => `${m.diseaseId}|${m.featureId}`) };
    });
    const kdInput = { diseases: clusters.diseases, hierarchy, features: ehr.features, manifestations: ehr.manifestations };
    const keyDifferences = await timed('keyDifferences', async () => [
      ...statisticalKeyDifferences(kdInput, params.keyDifferences),
      ...(llm ? await llmKeyDifferences({ ...kdInput, llm }) : []),
    ]);
    const kg = assemble({ clusters, hierarchy, ehr, augmented, keyDifferences });
    const checked = await timed('checks', async () => checkKg(kg));
    if (input.exportGexf) await exportGexf(checked.graph, input.exportGexf);

    // Content-addressed: same records, same shaping parameters, same embedder -> same build
    // (the batch size only changes how the load is cut, not what it writes).
    const { batchSize: _batchSize, ...shaping } = params;
    // The chosen hierarchy mode is part of it: 'auto' may pick another mode for the same params.
    const buildId = `kg-${stableHash(scan.fingerprint, JSON.stringify({ ...shaping, hierarchyMode: hierarchy.mode }), services.embedder.id, llm ? 'llm' : 'no-llm', input.source.description, ...(input.conceptNames ? [input.conceptNames.id] : []))}`;
    const counts = kgCounts(kg, scan.recordCount);
    const embeddingDim = (await embedUnit(embeddings, ['embedding dimension probe']))[0]!.length;
    // The Neo4j load and the on-disk artifacts (indexes, then the gate) need nothing from each
    // other, so they run side by side: Neo4j works in its own process (a freshly started one
    // spends most of a first load compiling itself, docs/benchmarks.md) while this one embeds
    // and indexes. `current` switches only when both are done. A failed artifact stage aborts
    // the load; a failed load is reported once the artifact stage has stopped.
    const loadAbort = new AbortController();
    const loadSignal = input.signal ? AbortSignal.any([input.signal, loadAbort.signal]) : loadAbort.signal;
    let loaded = 0;
    let loadBar = false; // the progress bar is the artifact stages' until they finish
    const onBatch = async (p: LoadProgress) => {
      loaded += p.rows;
      if (loadBar) progress.update(loaded);
      await input.onLoadBatch?.(p);
    };
    const unprepared = await preparing;
    if (unprepared) throw unprepared.error;
    type Loaded = { ok: true; v: LoadResult | null } | { ok: false; e: unknown };
    const loading: Promise<Loaded> = !toNeo4j ? Promise.resolve({ ok: true, v: null }) : timed('neo4j', () =>
      loadNeo4j(services.graph, {
        kg, degree: checked.degree,
        build: { id: buildId, source: input.source.description, embedder: services.embedder.id, embeddingDim, params: { ...params, hierarchyChosen: { mode: hierarchy.mode, reason: hierarchy.reason ?? null } } as unknown as Record<string, unknown>, counts, startedAt: new Date().toISOString() },
        records: params.recordsInGraph ? recordRows(spoolPath, clusters, ehr.canonical) : null,
      }, { batchSize: params.batchSize, onBatch, signal: loadSignal }),
    ).then((v) => ({ ok: true as const, v }), (e: unknown) => ({ ok: false as const, e })); // settled, never an unhandled rejection
    const artifacts = (async () => {
      const indexed = await timed('indexes', () => {
        progress.start('embed', scan.recordCount);
        return buildIndexes({
          dataDir: input.dataDir, buildId, source: input.source.description, embedderId: services.embedder.id, embeddings,
          factory: services.indexFactory, spoolPath, recordCount: scan.recordCount, diseaseOf: clusters.diseaseOf, features: kg.features,
          onRecords: (n) => progress.update(n),
        }, params.index).finally(() => progress.stop());
      });
      return timed('gate', () =>
        gateArtifactsStage({ dataDir: input.dataDir, manifest: indexed, kg, spoolPath, diseaseOf: clusters.diseaseOf, embedder: services.embedder, factory: services.indexFactory, llm }, params.gate ?? {}),
      );
    })();
    const made = await artifacts.then((v) => ({ ok: true as const, v }), (e: unknown) => ({ ok: false as const, e }));
    if (!made.ok) loadAbort.abort(made.e);
    // Rows the load will write, for the progress bar (aliases are small and left out).
    loadBar = toNeo4j;
    if (toNeo4j) {
      progress.start('neo4j', counts.categories! + counts.subcategories! + counts.diseases! + counts.features! + counts.manifestations! + counts.keyDifferences! + (params.recordsInGraph ? scan.recordCount : 0));
      progress.update(loaded);
    }
    const load = await loading;
    progress.stop();
    if (!made.ok) throw made.e;
    if (!load.ok) throw load.e;
    const neo4j = load.v;
    const gated = made.v;
    const manifest = split ? await recordSplit(input.dataDir, gated.manifest, split) : gated.manifest;
    await setCurrent(input.dataDir, buildId);
    const { features, ...scanRest } = scan;
    const outcome = { buildId, kg, hierarchy, clusters, scan: { ...scanRest, featureCount: features.size }, manifest, timings, llmUsed: llm !== null, triples, gate: gated.gate, notes: { ...notesReport, emergent: ehr.emergent, support: ehr.support } };
    return neo4j ? { ...outcome, neo4j } : { ...outcome, neo4j: null };
  } finally {
    progress.stop();
    await rm(spoolPath, { force: true });
  }
}
