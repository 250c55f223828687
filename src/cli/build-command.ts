import { Command } from 'commander';
import { InputError } from '../errors.js';
import { parseSourceSpec } from '../sources/source-spec-text.js';
import type { SourceSpec } from '../sources/types.js';
import type { HierarchyRequest } from '../../kg-build/aggregate-hierarchy.js';
import type { BuildParams } from '../../kg-build/pipeline.js';

/**
 * `dxgraph build`: its flags, help and flag rules. What it runs (build-run.ts: the pipeline, the
 * sources, the adapters) is imported when the command runs, so `--help` and the other commands
 * never load it (issue 49: that import was most of every CLI start's CPU).
 */
export interface BuildFlags {
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
  buildOptions(program.command('build')).action(async (o: BuildFlags) => (await import('./build-run.js')).runBuildCommand(o));
}

/** The flags of `dxgraph build …` as the command reads them, defaults included (a test runs the command in process). */
export function buildFlagsOf(args: string[]): BuildFlags {
  return buildOptions(new Command('build')).exitOverride().parse(args, { from: 'user' }).opts<BuildFlags>();
}

function buildOptions(command: Command): Command {
  return command
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
    .option('--calibration-folds <n>', 'disjoint held-out shares the default calibration fits on, each answered by a KG of the others (default: every patient once for coded records, up to 1,000 held out; at most 1 / share; one more fit build each, coded cases only past the first)', num('calibration-folds', { integer: true, min: 1 }))
    .option('--calibration-samples <file>', "save the default calibration's raw fit scores (numbers only: every disease's log-score, the truth's index, completeness; no text) for refit experiments (bench/calibration-tail.ts)")
    .option('--calibrate-held-out <spec>', "then fit the posterior calibration on these held-out patients (never in the build; e.g. a validate split); sources needing a mapping: use `dxgraph calibrate`")
    .option('--calibrate-text-cases <list>', 'then fit the free-text calibration on these labelled JSON Lines files ({"text", "condition"}; e.g. datasets/vignettes/cal.jsonl)');
}
