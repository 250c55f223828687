import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createEmbedder } from '../adapters/embeddings/index.js';
import { FaissVectorIndex } from '../adapters/faiss/vector-index.js';
import { ResponseCache } from '../adapters/llm/response-cache.js';
import { GraphStore } from '../adapters/neo4j/graph-store.js';
import { loadConfig, type Config } from '../config.js';
import { buildDir } from '../domain/artifacts.js';
import { InputError } from '../errors.js';
import { withoutDemographics } from '../sources/drop-demographics.js';
import { describeSourceSpec, openSource } from '../sources/source-spec.js';
import { ConcatSource } from '../sources/concat-source.js';
import type { RecordSource } from '../sources/types.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import { runBuild, type BuildOutcome, type BuildParams } from '../../kg-build/pipeline.js';
import type { BuildLlm } from '../../kg-build/llm-types.js';
import { faissThreadsForBuild } from '../../kg-build/build-threads.js';
import { createProgress } from '../../kg-build/progress.js';
import { memorySnapshot } from '../../kg-build/memory-snapshot.js';
import { prepareLoad } from '../../kg-build/load-neo4j.js';
import { memoryDifferencesKg } from '../query/memory-differences.js';
import { formatReport } from '../../kg-build/report.js';
import { calibrateFromFlags } from './calibrate-run.js';
import { buildCalibrated } from '../calibration/cross-fit.js';
import { markUncalibrated } from '../calibration/calibration-file.js';
import { crossFitLines } from '../calibration/cross-fit-report.js';
import type { CollectedSamples } from '../calibration/fit-stage.js';
import { samplesJson } from '../calibration/samples-file.js';
import type { NormalizedRecord } from '../domain/record.js';
import { splitFilter } from '../sources/split.js';
import { defaultLexiconPath, loadConceptNames } from '../../kg-build/hierarchy-lexicon.js';
import { paramsFromFlags, sourceSpecs, type BuildFlags } from './build-command.js';

/**
 * What `dxgraph build` runs (flags and help: build-command.ts). Loaded only when the command
 * runs: the pipeline, its sources and adapters are most of the CLI's start-up cost (issue 49).
 */
/** Where the command's settings come from and its report goes: the process's, unless a test runs the command in process. */
export interface BuildIo {
  config: Config;
  /** The build report (stdout). */
  out: (text: string) => void;
  /** Progress lines (stderr). */
  log: (line: string) => void;
}

const processIo = (): BuildIo => ({ config: loadConfig(), out: (t) => process.stdout.write(t), log: (l) => process.stderr.write(`${l}\n`) });

export async function runBuildCommand(o: BuildFlags, inProcess?: BuildIo): Promise<void> {
  // A build in its own process gives FAISS every core (set before faiss-node loads, at the first
  // index); one run inside another process (a test) leaves that process's threads alone.
  if (!inProcess) faissThreadsForBuild();
  const io = inProcess ?? processIo();
  const params = paramsFromFlags(o);
  if (o.calibrationShare !== undefined && !(o.calibrationShare > 0 && o.calibrationShare <= 0.5)) throw new InputError(`--calibration-share must be in (0, 0.5], got ${o.calibrationShare}`, { field: 'calibration-share' });
  // Concept phrases for statistical group names: an explicit --lexicon must exist; the
  // shipped DDXPlus lexicon is used when present (names are cut from the questions otherwise).
  const names = await loadConceptNames(o.lexicon ?? defaultLexiconPath());
  if (!names.ok) throw names.error;
  if (o.lexicon !== undefined && names.value === null) throw new InputError(`--lexicon: no file at ${o.lexicon}`, { field: 'lexicon' });
  const { config } = io;
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
    const llm = config.llm.enabled ? await buildLlm(config) : null;
    const services = { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm, progress: createProgress(), noteReader: async () => (await loadNoteReader({ sourceConcepts: (await source.codedConcepts?.()) ?? [] })).deps };
    const build = (dataDir: string, include: ((r: NormalizedRecord) => boolean) | null, exportGexf: string | null) =>
      runBuild({ source, dataDir, params, exportGexf, conceptNames: names.value, ...(include ? { include } : {}) }, services);
    let outcome: BuildOutcome;
    let calibrationLines: string[];
    let samples: CollectedSamples | null = null;
    if (selfCalibrate) {
      const split = params.split;
      // The fit KGs never reach Neo4j, so the served build's load is the first a freshly started
      // server sees: Neo4j creates the schema and plans the load now, in its own process, while
      // this one builds and answers the fit KGs (the served build's prepareLoad finds the plans made).
      // Settled: a failure is thrown where the served build starts.
      const planning = prepareLoad(graph).then(() => null, (error: unknown) => ({ error }));
      const crossFit = await buildCalibrated({
        config,
        build: async (dataDir, include) => {
          const failed = await planning;
          if (failed) throw failed.error;
          return build(dataDir, include, o.exportGexf ?? null);
        },
        // The fit KG stays out of Neo4j (a server there keeps its graph): answered from memory.
        fitBuild: async (dataDir, include) => {
          const fit = await runBuild({ source, dataDir, params: fitParams(params, config), exportGexf: null, conceptNames: names.value, include, graphLoad: 'memory' }, services);
          return { ...fit, memory: { snapshot: memorySnapshot(fit.kg, fit.buildId), differences: memoryDifferencesKg(fit.kg) } };
        },
        records: () => source.records(),
        inBuild: () => (split ? splitFilter({ ...split, part: 'train' }) : () => true),
        log: io.log,
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
    io.out(`${formatReport(outcome, { sourceSummary: source.summary(), buildDir: buildDir(config.dataDir, outcome.buildId) })}\n`);
    for (const l of calibrationLines) io.out(`${l}\n`);
    io.out(`source: ${specs.map(describeSourceSpec).join(' + ')}\n`);
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
 * The cross-fit's fit KG only answers the held-out cases through the diagnose path, with the
 * server's gate setting: with the gate off (DXGRAPH_GATE, the default) no query reads a gate
 * classifier, so the fit build trains none (issue 49: the classifier's annotation diagnoses and
 * threshold calibration were a build's gate stage, paid twice). Its id is not the served build's
 * anyway; with the gate on or auto the fit KG keeps the served one's gate.
 */
export function fitParams(params: BuildParams, config: Pick<Config, 'gate'>): BuildParams {
  return (config.gate?.mode ?? 'off') === 'off' ? { ...params, gate: { ...params.gate, maxExamples: 0 } } : params;
}

/** The build's LLM stages; the chat model's module (and its LLM client) is loaded only when an LLM is configured. */
async function buildLlm(config: Config): Promise<BuildLlm> {
  const { createChatModel } = await import('../adapters/llm/chat-model.js');
  return { chat: createChatModel(config), cache: new ResponseCache(join(config.dataDir, 'llm-cache')), timeoutMs: config.llm.timeoutMs, ...(config.llm.provider === 'local' ? { concurrency: 1 } : {}) };
}
