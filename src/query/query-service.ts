import { ArtifactError } from '../errors.js';
import { FaissVectorIndex } from '../adapters/faiss/vector-index.js';
import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import { EvidenceReasoner } from '../reasoners/evidence-reasoner.js';
import type { Reasoner } from '../reasoners/reasoner.js';
import { DEFAULT_OPTIONS, type DiagnoseInput, type DiagnoseOptions, type DiagnoseResult, type FollowUpRankerName } from './contracts.js';
import { diagnose, type DiagnoseDeps, type QueryLimits } from './diagnose.js';
import type { TextEmbedder } from './embed.js';
import { DEFAULT_RECORD_RETRIEVAL, type RecordRetrieval } from './retrieve-records.js';
import { EngineFollowUpRanker } from '../followups/pipeline-ranker.js';
import { SigmaRanker, type FollowUpRanker } from './followups-sigma.js';
import type { KgSnapshot } from './kg-snapshot.js';
import { loadSnapshot, openArtifacts, type IndexOpener, type QueryArtifacts } from './load-snapshot.js';
import type { KnowledgeFilterDeps } from './filter-retrieved.js';
import { DiseaseProfiles, rowDiseases } from './disease-profiles.js';
import { cachedDifferencesKg, uncachedDifferencesKg, type DifferencesKgReader } from './differences-kg-cache.js';
import type { MemoryKg } from './memory-differences.js';
import type { ConceptLexicon } from '../clinical-text/concepts/types.js';
import { defaultDdxplusLexiconPath, loadLexicon } from '../clinical-text/concepts/lexicon.js';
import type { LlmDecomposer } from './decompose-llm.js';
import type { PhraseEmbedder } from '../clinical-text/concepts/embed-forms.js';
import { prepareConcepts } from '../clinical-text/concepts/match-concepts.js';
import { HashedEmbedder } from '../adapters/embeddings/hashed-embedder.js';
import { WordLlamaEmbedder } from '../adapters/embeddings/wordllama-embedder.js';
import { readCalibration } from '../calibration/calibration-file.js';
import { gateDeps, NO_GATE_ARTIFACTS, openGateArtifacts, type GateConfig } from './load-gate.js';

/**
 * The query side as one object for the CLI, the HTTP server and the benchmarks:
 * everything loaded once, `diagnose()` per request.
 */
export interface QueryService {
  readonly snapshot: KgSnapshot;
  readonly artifacts: QueryArtifacts;
  readonly reasoners: readonly Reasoner[];
  diagnose(input: DiagnoseInput, opts?: { signal?: AbortSignal }): Promise<DiagnoseResult>;
}

export interface QueryServiceDeps {
  graph: Pick<GraphStore, 'read'>;
  snapshot: KgSnapshot;
  artifacts: QueryArtifacts;
  embedder: TextEmbedder;
  /** Extra reasoners (the LLM reasoner); the evidence reasoner is always present. */
  reasoners?: Reasoner[];
  followUpRanker?: FollowUpRanker;
  /** Per-request follow-up rankers (options.followUpRanker); default: both follow-up engine rankers. */
  followUpRankers?: Partial<Record<FollowUpRankerName, FollowUpRanker>>;
  differencesPerDisease?: number;
  /** Keep each subcategory's differences KG after its first read (differences-kg-cache.ts); default true. */
  differencesCache?: boolean;
  /** Reads the differences KG instead of `graph` (a KG in memory, memory-differences.ts); absent: from `graph`. */
  differences?: DifferencesKgReader;
  /** Per-request bounds (findings, LLM budget); absent: DEFAULT_QUERY_LIMITS. */
  limits?: QueryLimits;
  /** Gate mode and thresholds (DXGRAPH_GATE*); absent = gate off (programmatic callers opt in). */
  gate?: GateConfig;
  /** The LLM knowledge filter on retrieved records (FIND §3.3.2); absent/null = no filter. */
  knowledgeFilter?: KnowledgeFilterDeps | null;
  /** The concept layer's lexicon (src/clinical-text/concepts); absent/null = surface forms from feature labels only. */
  lexicon?: ConceptLexicon | null;
  /** LLM decomposition (decompose-llm.ts) when an LLM is configured; absent/null = the rule path. */
  decomposer?: LlmDecomposer | null;
  /** The concept layer's embedding fallback; absent/null = none (openQueryService loads WordLlama, else hashed n-grams). */
  phraseEmbedder?: PhraseEmbedder | null;
  /** How similar records are found (DXGRAPH_RECORD_RETRIEVAL); absent: DEFAULT_RECORD_RETRIEVAL. */
  recordRetrieval?: RecordRetrieval;
}

/** Programmatic callers that pass no gate config get the pipeline without the gate. */
export const GATE_OFF: GateConfig = { mode: 'off', theta1: null, theta2: null };

export function createQueryService(deps: QueryServiceDeps): QueryService {
  const reasoners = [...(deps.reasoners ?? [])];
  if (!reasoners.some((r) => r.name === 'evidence')) reasoners.push(new EvidenceReasoner());
  const d: DiagnoseDeps = {
    graph: deps.graph,
    snapshot: deps.snapshot,
    embedder: deps.embedder,
    featureIndex: deps.artifacts.featureIndex,
    recordIndex: deps.artifacts.recordIndex,
    records: deps.artifacts.records,
    lexical: deps.artifacts.lexical ?? null,
    profiles: diseaseProfiles(deps),
    recordRetrieval: deps.recordRetrieval ?? DEFAULT_RECORD_RETRIEVAL,
    reasoners,
    followUpRanker: deps.followUpRanker ?? new SigmaRanker(),
    // A single injected ranker answers every request; otherwise both are selectable per request.
    followUpRankers: deps.followUpRanker ? undefined : (deps.followUpRankers ?? { 'information-gain': new EngineFollowUpRanker('information-gain'), sigma: new EngineFollowUpRanker('sigma') }),
    differences: deps.differences ?? (deps.differencesCache === false ? uncachedDifferencesKg(deps.graph) : cachedDifferencesKg(deps.graph, { maxEntries: 4096 })),
    differencesPerDisease: deps.differencesPerDisease ?? 30,
    ...(deps.limits ? { limits: deps.limits } : {}),
    ...gateDeps({ artifacts: deps.artifacts.gate ?? NO_GATE_ARTIFACTS, config: deps.gate ?? GATE_OFF, embeddings: deps.embedder.embeddings }),
    knowledgeFilter: deps.knowledgeFilter ?? null,
    lexicon: deps.lexicon ?? null,
    decomposer: deps.decomposer ?? null,
    phraseEmbedder: deps.phraseEmbedder ?? null,
    calibration: deps.artifacts.calibration ?? null,
  };
  return { snapshot: deps.snapshot, artifacts: deps.artifacts, reasoners, diagnose: (input, opts) => diagnose(d, input, opts ?? {}) };
}

/** Profiles only for builds whose records were read from notes: coded records rendered as text are the KG's own counts again. */
function diseaseProfiles(deps: QueryServiceDeps): DiseaseProfiles | null {
  const lex = deps.artifacts.lexical;
  if (!lex?.fromNotes) return null;
  return DiseaseProfiles.fromLexical(lex.index, rowDiseases(lex.ids, deps.artifacts.records, deps.snapshot.diseaseIndex), deps.snapshot.diseases.length);
}

export const openFaissIndex: IndexOpener = (indexPath, idsPath) => FaissVectorIndex.load(indexPath, idsPath ?? undefined);

/** Start-up: read the KG once from a connected GraphStore (or take it from memory) and open the current build's artifacts. */
export async function openQueryService(deps: {
  graph: Pick<GraphStore, 'read'>;
  /** The KG held in memory instead of read from `graph` (a calibration fit KG the build never loaded; `graph` is then NO_NEO4J). */
  memory?: MemoryKg;
  dataDir: string;
  embedder: TextEmbedder;
  reasoners?: Reasoner[];
  openIndex?: IndexOpener;
  gate?: GateConfig;
  knowledgeFilter?: KnowledgeFilterDeps | null;
  differencesCache?: boolean;
  limits?: QueryLimits;
  /** The concept layer's lexicon: absent = the shipped DDXPlus lexicon (unused by KGs without its codes); null = none. */
  lexicon?: ConceptLexicon | null;
  decomposer?: LlmDecomposer | null;
  /** Absent = WordLlama from the model dir `npm run setup` fills, hashed n-grams when it is missing; null = none. */
  phraseEmbedder?: PhraseEmbedder | null;
  recordRetrieval?: RecordRetrieval;
  /** false: ignore the build's posterior calibration (benchmarks measuring before / after); default true. */
  calibrated?: boolean;
}): Promise<QueryService> {
  const opened = await openArtifacts({ dataDir: deps.dataDir, embedderId: deps.embedder.id, openIndex: deps.openIndex ?? openFaissIndex });
  const gate = await openGateArtifacts({ dataDir: deps.dataDir, manifest: opened.manifest, embedderId: deps.embedder.id, openIndex: deps.openIndex ?? openFaissIndex });
  const artifacts = { ...opened, gate, calibration: deps.calibrated === false ? null : await readCalibration(deps.dataDir, opened.manifest) };
  const snapshot = deps.memory ? deps.memory.snapshot : await loadSnapshot(deps.graph);
  const lexicon = deps.lexicon !== undefined ? deps.lexicon : await shippedLexicon();
  const phraseEmbedder = deps.phraseEmbedder !== undefined ? deps.phraseEmbedder : await defaultPhraseEmbedder();
  // The indexes' feature and disease ids must be the graph's: refuse a mixed pair.
  if (snapshot.buildId !== artifacts.manifest.buildId) {
    throw new ArtifactError(
      artifacts.manifest.buildId,
      `Neo4j holds KG build ${snapshot.buildId ?? '(none)'} but DXGRAPH_DATA_DIR's current build is ${artifacts.manifest.buildId}: rebuild, or point NEO4J_URI / DXGRAPH_DATA_DIR at the same build`,
    );
  }
  prepareConcepts({ snapshot, lexicon, phraseEmbedder });
  return createQueryService({
    graph: deps.graph, ...(deps.memory ? { differences: deps.memory.differences } : {}), snapshot, artifacts, embedder: deps.embedder, reasoners: deps.reasoners ?? [],
    ...(deps.gate ? { gate: deps.gate } : {}), knowledgeFilter: deps.knowledgeFilter ?? null, differencesCache: deps.differencesCache ?? true,
    ...(deps.limits ? { limits: deps.limits } : {}), lexicon, decomposer: deps.decomposer ?? null, phraseEmbedder,
    ...(deps.recordRetrieval ? { recordRetrieval: deps.recordRetrieval } : {}),
  });
}

/**
 * The concept layer's defaults, loaded once for several query services of one process (the
 * calibration's folds open one per fit KG: issue 49): the shipped lexicon and the phrase embedder.
 */
export async function defaultConceptDeps(): Promise<{ lexicon: ConceptLexicon; phraseEmbedder: PhraseEmbedder }> {
  const [lexicon, phraseEmbedder] = await Promise.all([shippedLexicon(), defaultPhraseEmbedder()]);
  return { lexicon, phraseEmbedder };
}

/** WordLlama (static token embeddings, no download at run time) when installed; hashed n-grams otherwise. */
async function defaultPhraseEmbedder(): Promise<PhraseEmbedder> {
  const loaded = await WordLlamaEmbedder.load();
  return loaded.ok ? loaded.value : new HashedEmbedder();
}

/** The reviewed DDXPlus lexicon shipped in datasets/lexicon; a broken file stops start-up with the field at fault. */
async function shippedLexicon(): Promise<ConceptLexicon> {
  const loaded = await loadLexicon(defaultDdxplusLexiconPath());
  if (!loaded.ok) throw loaded.error;
  return loaded.value;
}

/** A DiagnoseInput from text plus partial options (CLI, tests, benchmarks). */
export function textInput(text: string, options: Partial<DiagnoseOptions> = {}): DiagnoseInput {
  return { text, findings: [], age: null, sex: null, options: { ...DEFAULT_OPTIONS, ...options } };
}
