import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { createEmbedder } from '../adapters/embeddings/index.js';
import { FaissVectorIndex } from '../adapters/faiss/vector-index.js';
import { createChatModel } from '../adapters/llm/chat-model.js';
import { ResponseCache } from '../adapters/llm/response-cache.js';
import { GraphStore } from '../adapters/neo4j/graph-store.js';
import { loadConfig } from '../config.js';
import { buildDir } from '../domain/artifacts.js';
import { InputError } from '../errors.js';
import { withoutDemographics } from '../sources/drop-demographics.js';
import { describeSourceSpec, openSource, parseSourceSpec } from '../sources/source-spec.js';
import { ConcatSource } from '../sources/concat-source.js';
import type { RecordSource, SourceSpec } from '../sources/types.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import type { HierarchyRequest } from '../../kg-build/aggregate-hierarchy.js';
import { runBuild, type BuildOutcome, type BuildParams } from '../../kg-build/pipeline.js';
import { faissThreadsForBuild } from '../../kg-build/build-threads.js';
import { createProgress } from '../../kg-build/progress.js';
import { formatReport } from '../../kg-build/report.js';
import { calibrateFromFlags } from './calibrate-command.js';
import { buildCalibrated } from '../calibration/cross-fit.js';
import { markUncalibrated } from '../calibration/calibration-file.js';
import { crossFitLines } from '../calibration/cross-fit-report.js';
import type { CollectedSamples } from '../calibration/fit-stage.js';
import { samplesJson } from '../calibration/samples-file.js';
import type { NormalizedRecord } from '../domain/record.js';
import { splitFilter } from '../sources/split.js';
import { defaultLexiconPath, loadConceptNames } from '../../kg-build/hierarchy-lexicon.js';

interface BuildFlags {
  /** One or more sources; the i-th --mapping / --query-file goes with the i-th tabular / postgres source. */
  source: string[];
  mapping?: string[];
  queryFile?: string[];
  minPatients?: number;
  minNoteSupport?: number;
  maxNoteFeatureShare?: number;
  hierarchy: string;
  strict?: boolean;
  recordsInGraph?: boolean;
  testFraction?: number;
  seed?: number;
  stratify?: boolean;
  subcategories: string;
  categories: string;
  batchSize: number;
  triples?: string;
  exportGexf?: string;
  gateSample?: number;
  lexicon?: string;
  /** Issue 26: fit the posterior calibration right after the build (calibrate-command.ts). */
  calibrateHeldOut?: string;
  calibrateTextCases?: string;
  /** Issue 48: false with --no-calibrate; otherwise the build calibrates itself (src/calibration/cross-fit.ts). */
  calibrate?: boolean;
  calibrationShare?: number;
  calibrationFolds?: number;
  /** Where to save the default calibration's raw fit scores (numbers only), for refit experiments. */
  calibrationSamples?: string;
}

const HIERARCHY_MODES = ['auto', 'statistical', 'icd10', 'llm'] as const;

function num(flag: string, opts: { integer?: boolean; min?: number } = {}) {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || (opts.integer && !Number.isInteger(n))) throw new InputError(`--${flag} must be a${opts.integer ? 'n integer' : ' number'}, got '${v}'`, { field: flag });
    if (opts.min !== undefined && n < opts.min) throw new InputError(`--${flag} must be at least ${opts.min}, got '${v}'`, { field: flag });
    return n;
  };
}

/** A positive number, or 'none' for no limit (Infinity). */
export function shareOrNone(flag: string) {
  return (v: string): number => {
    if (v.trim() === 'none') return Infinity;
    const n = num(flag)(v);
    if (!(n > 0)) throw new InputError(`--${flag} must be a positive number or 'none', got '${v}'`, { field: flag });
    return n;
  };
}

function size(flag: string, v: string): number | 'auto' {
  return v === 'auto' ? 'auto' : num(flag, { integer: true })(v);
}

/** Builds BuildParams from the flags; every rule about flag combinations lives here. */
export function paramsFromFlags(o: BuildFlags): BuildParams {
  if (!(HIERARCHY_MODES as readonly string[]).includes(o.hierarchy)) throw new InputError(`--hierarchy must be one of ${HIERARCHY_MODES.join('|')}, got '${o.hierarchy}'`, { field: 'hierarchy' });
  if ((o.testFraction === undefined) !== (o.seed === undefined)) throw new InputError('--test-fraction and --seed go together', { field: o.seed === undefined ? 'seed' : 'test-fraction' });
  if (!(o.batchSize >= 1 && Number.isInteger(o.batchSize))) throw new InputError(`--batch-size must be a positive integer, got ${o.batchSize}`, { field: 'batch-size' });
  return {
    hierarchy: o.hierarchy as HierarchyRequest,
    sizes: { subcategories: size('subcategories', o.subcategories), categories: size('categories', o.categories) },
    cluster: {},
    decompose: {
      ...(o.minPatients !== undefined ? { emergent: { minPatients: o.minPatients } } : {}),
      ...(o.minNoteSupport !== undefined ? { minNoteSupport: o.minNoteSupport } : {}),
      ...(o.maxNoteFeatureShare !== undefined ? { maxNoteFeatureShare: o.maxNoteFeatureShare } : {}),
    },
    keyDifferences: {},
    index: {},
    batchSize: o.batchSize,
    recordsInGraph: o.recordsInGraph === true,
    triplesFile: o.triples ?? null,
    split: o.testFraction !== undefined && o.seed !== undefined ? { testFraction: o.testFraction, seed: o.seed, ...(o.stratify ? { stratify: true } : {}) } : null,
    ...(o.gateSample !== undefined ? { gate: { maxExamples: o.gateSample } } : {}),
  };
}

async function runBuildCommand(o: BuildFlags): Promise<void> {
  const params = paramsFromFlags(o);
  if (o.calibrationShare !== undefined && !(o.calibrationShare > 0 && o.calibrationShare <= 0.5)) throw new InputError(`--calibration-share must be in (0, 0.5], got ${o.calibrationShare}`, { field: 'calibration-share' });
  // Concept phrases for statistical group names: an explicit --lexicon must exist; the
  // shipped DDXPlus lexicon is used when present (names are cut from the questions otherwise).
  const names = await loadConceptNames(o.lexicon ?? defaultLexiconPath());
  if (!names.ok) throw names.error;
  if (o.lexicon !== undefined && names.value === null) throw new InputError(`--lexicon: no file at ${o.lexicon}`, { field: 'lexicon' });
  faissThreadsForBuild(); // before faiss-node loads (first index created by the build)
  const config = loadConfig();
  const specs = sourceSpecs(o);
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  const parts: RecordSource[] = [];
  try {
    for (const spec of specs) parts.push(await openSource(spec, { strict: o.strict === true }));
  } catch (e) {
    await Promise.allSettled([...parts.map((p) => p.close()), graph.close()]);
    throw e;
  }
  const opened = parts.length === 1 ? parts[0]! : new ConcatSource(parts);
  // DXGRAPH_DROP_DEMOGRAPHICS: age and sex never enter the build (docs/security.md).
  const source = config.privacy.dropDemographics ? withoutDemographics(opened) : opened;
  // Given held-out cases (--calibrate-*) calibrate the build on all records after it; else it calibrates itself.
  const given = Boolean(o.calibrateHeldOut || o.calibrateTextCases);
  const selfCalibrate = o.calibrate !== false && !given;
  try {
    const llm = config.llm.enabled
      ? { chat: createChatModel(config), cache: new ResponseCache(join(config.dataDir, 'llm-cache')), timeoutMs: config.llm.timeoutMs, ...(config.llm.provider === 'local' ? { concurrency: 1 } : {}) }
      : null;
    const services = { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm, progress: createProgress(), noteReader: async () => (await loadNoteReader({ sourceConcepts: (await source.codedConcepts?.()) ?? [] })).deps };
    const build = (dataDir: string, include: ((r: NormalizedRecord) => boolean) | null, exportGexf: string | null) =>
      runBuild({ source, dataDir, params, exportGexf, conceptNames: names.value, ...(include ? { include } : {}) }, services);
    let outcome: BuildOutcome;
    let calibrationLines: string[];
    let samples: CollectedSamples | null = null;
    if (selfCalibrate) {
      const split = params.split;
      const crossFit = await buildCalibrated({
        config,
        build: (dataDir, include) => build(dataDir, include, dataDir === config.dataDir ? (o.exportGexf ?? null) : null),
        records: () => source.records(),
        inBuild: () => (split ? splitFilter({ ...split, part: 'train' }) : () => true),
        log: (l) => process.stderr.write(`${l}\n`),
        ...(o.calibrationShare !== undefined ? { share: o.calibrationShare } : {}),
        ...(o.calibrationFolds !== undefined ? { folds: o.calibrationFolds } : {}),
        ...(o.calibrationSamples ? { onSamples: (s: CollectedSamples) => { samples = s; } } : {}),
      });
      if (o.calibrationSamples && samples) await writeFile(o.calibrationSamples, samplesJson(samples));
      outcome = crossFit.served;
      calibrationLines = crossFitLines(crossFit);
    } else {
      outcome = await build(config.dataDir, null, o.exportGexf ?? null);
      calibrationLines = given ? [] : ['calibration: none (--no-calibrate): probabilities are the raw posterior (likely overconfident)'];
      if (!given) outcome = { ...outcome, manifest: await markUncalibrated(config.dataDir, outcome.manifest, 'built with --no-calibrate: probabilities are the raw posterior (likely overconfident): read the ranks') };
    }
    process.stdout.write(`${formatReport(outcome, { sourceSummary: source.summary(), buildDir: buildDir(config.dataDir, outcome.buildId) })}\n`);
    for (const l of calibrationLines) process.stdout.write(`${l}\n`);
    process.stdout.write(`source: ${specs.map(describeSourceSpec).join(' + ')}\n`);
  } finally {
    await source.close();
    await graph.close();
  }
  // The build is current now: its calibration is fitted on cases it never saw and stored beside it.
  if (given) {
    await calibrateFromFlags(config, { ...(o.calibrateHeldOut ? { heldOut: o.calibrateHeldOut } : {}), ...(o.calibrateTextCases ? { textCases: o.calibrateTextCases } : {}), seed: '1' });
  }
}

/**
 * The sources of `--source A [--source B …]`: mappings and query files are handed out in order
 * to the sources that need them (csv/jsonl/postgres need a mapping; postgres may take a query
 * file); one left over or missing is an error naming the flag.
 */
export function sourceSpecs(o: Pick<BuildFlags, 'source' | 'mapping' | 'queryFile'>): SourceSpec[] {
  const mappings = [...(o.mapping ?? [])];
  const queries = [...(o.queryFile ?? [])];
  const kinds = o.source.map((s) => s.split(':', 1)[0]!);
  const postgres = (k: string) => k === 'postgres' || k === 'postgresql';
  // The i-th postgres source takes the i-th --query-file, when there is one.
  const withQuery = kinds.map((k, i) => postgres(k) && queries.length > kinds.slice(0, i).filter(postgres).length);
  // csv / jsonl, and postgres without a query file, need a mapping; a postgres source with a query
  // file takes one only when more mappings were given than those need.
  const needed = kinds.filter((k, i) => k === 'csv' || k === 'jsonl' || (postgres(k) && !withQuery[i])).length;
  let spare = Math.max(0, mappings.length - needed);
  const specs = o.source.map((s, i) => {
    const k = kinds[i]!;
    const queryFile = postgres(k) ? (queries.shift() ?? null) : null;
    const takes = k === 'csv' || k === 'jsonl' || (postgres(k) && (queryFile === null || (spare > 0 && spare-- > 0)));
    return parseSourceSpec(s, { mapping: takes ? (mappings.shift() ?? null) : null, queryFile });
  });
  if (mappings.length > 0) throw new InputError(`--mapping: ${mappings.length} more than the csv/jsonl/postgres sources given`, { field: 'mapping' });
  if (queries.length > 0) throw new InputError(`--query-file: ${queries.length} more than the postgres sources given`, { field: 'query-file' });
  return specs;
}

const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

export function registerBuildCommand(program: Command): void {
  program
    .command('build')
    .description('build the four-tier diagnostic KG in Neo4j and the FAISS indexes from an EHR source')
    .requiredOption('--source <spec>', 'ddxplus:DIR | csv:PATH | jsonl:PATH | postgres:URL | omop:postgres://…[?schema=S] | fhir:DIR (repeat for one KG from several sources)', collect)
    .option('--mapping <file>', 'mapping file (JSON) for csv, jsonl and postgres sources (repeat: in the order of those sources)', collect)
    .option('--query-file <file>', 'SQL query yielding the rows (postgres; repeat: in the order of the postgres sources)', collect)
    .option('--min-patients <k>', 'records an emergent concept read from notes, and each phrase stored for it, must have been seen in (default 5)', num('min-patients', { integer: true }))
    .option('--max-note-feature-share <x>', "features learnt from notes a KG keeps per record with notes, each disease's best-backed first (default 0.5; 'none' keeps every one the support rules keep)", shareOrNone('max-note-feature-share'))
    .option('--min-note-support <n>', "notes of a disease a finding learnt from notes needs to become its manifestation (default 2; 1 keeps every note's finding; diseases with fewer than 5 notes always keep them)", num('min-note-support', { integer: true, min: 1 }))
    .option('--hierarchy <mode>', 'auto (ICD-10 when ~all diseases have codes, else LLM if configured, else statistical) | statistical | icd10 | llm', 'auto')
    .option('--lexicon <file>', 'concept lexicon (JSON) naming statistical groups (default: datasets/lexicon/ddxplus-lexicon.json when present)')
    .option('--subcategories <n>', "number of L2 subcategories, or 'auto'", 'auto')
    .option('--categories <n>', "number of L1 categories, or 'auto'", 'auto')
    .option('--strict', 'stop at the first malformed source row')
    .option('--records-in-graph', 'also load the training records as :Record nodes')
    .option('--triples <file>', 'external (subject, relation, object) triples (CSV or JSONL) imported as L4a features')
    .option('--test-fraction <x>', 'hold out this share of patients (never seen by the build)', num('test-fraction'))
    .option('--seed <n>', 'seed of the train/test split', num('seed', { integer: true }))
    .option('--stratify', 'stratified split (same as `dxgraph split --stratify`)')
    .option('--export-gexf <file>', 'also write the KG as GEXF (Gephi)')
    .option('--gate-sample <n>', 'training records annotated for the information-density gate (default 300; 0: no gate)', num('gate-sample', { integer: true }))
    .option('--batch-size <n>', 'rows per Neo4j UNWIND batch', num('batch-size', { integer: true }), 5000)
    .option('--no-calibrate', 'serve the raw posterior: no calibration fit (by default the build holds out 20% of its patients, fits the calibration on a KG of the rest, then builds the served KG from all)')
    .option('--calibration-share <x>', 'share of patients the default calibration holds out (default 0.2; large sources hold out at most 1,000)', num('calibration-share'))
    .option('--calibration-folds <n>', 'disjoint held-out shares the default calibration fits on, each answered by a KG of the others (default 1; at most 1 / share; one more fit build each)', num('calibration-folds', { integer: true, min: 1 }))
    .option('--calibration-samples <file>', "save the default calibration's raw fit scores (numbers only: every disease's log-score, the truth's index, completeness; no text) for refit experiments (bench/calibration-tail.ts)")
    .option('--calibrate-held-out <spec>', "then fit the posterior calibration on these held-out patients (never in the build; e.g. a validate split); sources needing a mapping: use `dxgraph calibrate`")
    .option('--calibrate-text-cases <list>', 'then fit the free-text calibration on these labelled JSON Lines files ({"text", "condition"}; e.g. datasets/vignettes/cal.jsonl)')
    .action(runBuildCommand);
}
