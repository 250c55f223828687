import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { paramsFromFlags } from '../../src/cli/build-command.js';
import type { Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { diagnosisToDisease } from '../../src/query/evaluate-ask.js';
import { openQueryService } from '../../src/query/query-service.js';
import { createReasoners } from '../../src/query/served-query.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { splitFilter } from '../../src/sources/split.js';
import { runBuild } from '../../kg-build/pipeline.js';
import { runCase, type FreeTextCase } from './free-text-cases.js';
import { breakdown, type Breakdown } from './free-text-score.js';
import { parseVignettes, readDdxplusVocabulary, selectVignettes, type Vignette } from './free-text-set.js';
import { percentile } from './stats.js';
import { TfidfKnn, type LabeledText } from './tfidf-knn.js';

import { freeTextCalibration, type FreeTextCalibration } from './free-text-calibration.js';
import { InputError } from '../../src/errors.js';
/**
 * The free-text bench (issue 17, "Measure"): build the KG from the train part of the DDXPlus
 * sample (the demo's patient-level split), open the query service as `dxgraph ask` does, and
 * run every vignette through dxgraph and through the TF-IDF kNN baseline fitted on the same
 * training records' text renderings. The caller owns the Neo4j (bench/free-text.ts starts a
 * dedicated one unless told otherwise); with `build`, that database is wiped first.
 */
export interface FreeTextOptions {
  config: Config;
  vignettesPath: string;
  /** Held-out sets scored in the same run, each reported apart (empty: none). */
  heldOutPaths: string[];
  ddxplusDir: string;
  ids: string[] | null;
  build: boolean;
  /** null: every shipped record trains the KG and the baseline (the vignettes are not DDXPlus records). */
  split: { seed: number; testFraction: number } | null;
  k: number;
  log: (line: string) => void;
  /** Labelled text sets the posterior calibration is fitted on after the accuracy runs (issue 26); empty: none. */
  calibrateOn?: string[];
  /** Conditions a second blind calibration pool leaves out (reported only). */
  calibrationWithout?: string[];
}

interface SetInfo {
  path: string;
  sha256: string;
  n: number;
  conditions: number;
}

/** One vignette set's figures (the dev set's are the report's top level; a held-out set's sit under `heldOut`). */
export interface SetResult {
  /** Vignettes whose condition is no disease of the build (no train record: a miss for both systems), and those conditions. */
  unknownGold: number;
  unknownGoldConditions: string[];
  dxgraph: {
    scores: Breakdown;
    /** Negated evidence codes matched as present: over all vignettes, and vignettes with at least one. */
    negatedAsPresent: { codes: number; cases: number; ofCodes: number };
    negationsCaught: { codes: number; ofCodes: number };
    noMatchShare: number;
    /** null when no result carried an `insufficient` field. */
    insufficient: { count: number; of: number; byReason: Record<string, number> } | null;
    latencyMs: { matchP50: number | null; textToFeaturesP50: number | null; totalP50: number };
  };
  baseline: { scores: Breakdown };
  cases: FreeTextCase[];
}

export interface FreeTextReport extends SetResult {
  set: SetInfo;
  split: { seed: number; testFraction: number } | null;
  trainRecords: number;
  k: number;
  build: { buildId: string | null; seconds: number | null };
  embedder: string;
  /** The held-out sets (datasets/vignettes/test*.jsonl: written blind, never used for tuning), same KG and baseline. */
  heldOut: Array<SetResult & { set: SetInfo }>;
  /** Probabilities before / after the build's calibration, per set (absent: not asked). */
  calibration?: FreeTextCalibration;
}

async function trainTexts(ddxplusDir: string, split: FreeTextOptions['split']): Promise<{ text: string; diagnosis: string }[]> {
  const source = await openSource(parseSourceSpec(`ddxplus:${ddxplusDir}`), { strict: false });
  const keep = split ? splitFilter({ ...split, part: 'train' }) : () => true;
  const out: { text: string; diagnosis: string }[] = [];
  try {
    for await (const r of source.records()) if (keep(r)) out.push({ text: r.text, diagnosis: r.diagnosis });
  } finally {
    await source.close();
  }
  return out;
}

async function build(o: FreeTextOptions, graph: GraphStore): Promise<number> {
  const t0 = performance.now();
  while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
  // The CLI's own flag rules and defaults (`dxgraph build --test-fraction 0.4 --seed 1`), so the
  // bench builds what a user builds.
  const params = paramsFromFlags({ source: [`ddxplus:${o.ddxplusDir}`], hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000, ...(o.split ?? {}) });
  const source = await openSource(parseSourceSpec(`ddxplus:${o.ddxplusDir}`), { strict: false });
  try {
    await runBuild(
      { source, dataDir: o.config.dataDir, params, ...(o.split ? { include: splitFilter({ ...o.split, part: 'train' }) } : {}) },
      { graph, embedder: createEmbedder(o.config), indexFactory: FaissVectorIndex, llm: null },
    );
  } finally {
    await source.close();
  }
  return (performance.now() - t0) / 1000;
}

const countBy = (xs: string[]): Record<string, number> => Object.fromEntries([...new Set(xs)].sort().map((x) => [x, xs.filter((y) => y === x).length]));

const p50 = (xs: (number | null)[]): number | null => {
  const s = Float64Array.from(xs.filter((x): x is number => x !== null)).sort();
  return s.length === 0 ? null : Math.round(percentile(s, 50) * 1000) / 1000;
};

/** One vignette set through dxgraph and the baseline: per-case results and the summary figures. */
async function runSet(ctx: Parameters<typeof runCase>[0], vignettes: readonly Vignette[], log: (line: string) => void): Promise<SetResult> {
  const cases: FreeTextCase[] = [];
  for (const v of vignettes) {
    cases.push(await runCase(ctx, v));
    if (cases.length % 50 === 0) log(`free-text: ${cases.length}/${vignettes.length} vignettes`);
  }
  const dx = cases.map((c) => c.dxgraph);
  const flags = dx.map((d) => d.insufficient).filter((f): f is boolean => f !== null);
  const absentCodes = vignettes.reduce((s, v) => s + v.absentEvidences.length, 0);
  return {
    unknownGold: cases.filter((c) => c.goldDiseaseId === null).length,
    unknownGoldConditions: [...new Set(cases.filter((c) => c.goldDiseaseId === null).map((c) => c.condition))].sort(),
    dxgraph: {
      scores: breakdown(cases.map((c) => ({ style: c.style, tags: c.tags, rank: c.dxgraph.rank }))),
      negatedAsPresent: { codes: dx.reduce((s, d) => s + d.negatedAsPresent.length, 0), cases: dx.filter((d) => d.negatedAsPresent.length > 0).length, ofCodes: absentCodes },
      negationsCaught: { codes: dx.reduce((s, d) => s + d.negationsCaught.length, 0), ofCodes: absentCodes },
      noMatchShare: dx.length === 0 ? 0 : dx.filter((d) => d.matches.length === 0).length / dx.length,
      insufficient: flags.length === 0 ? null : { count: flags.filter(Boolean).length, of: dx.length, byReason: countBy(dx.flatMap((d) => (d.insufficientReason ? [d.insufficientReason] : []))) },
      latencyMs: { matchP50: p50(dx.map((d) => d.ms.match)), textToFeaturesP50: p50(dx.map((d) => d.ms.textToFeatures)), totalP50: p50(dx.map((d) => d.ms.total)) ?? 0 },
    },
    baseline: { scores: breakdown(cases.map((c) => ({ style: c.style, tags: c.tags, rank: c.baseline.rank }))) },
    cases,
  };
}

const setInfo = (path: string, raw: string, vignettes: readonly Vignette[]): SetInfo => ({
  path, sha256: createHash('sha256').update(raw).digest('hex'), n: vignettes.length, conditions: new Set(vignettes.map((v) => v.condition)).size,
});

export async function runFreeText(o: FreeTextOptions): Promise<FreeTextReport> {
  // Every set is read once and checked before the build (a typo in one fails fast), against one read of the vocabulary.
  const vocab = await readDdxplusVocabulary(o.ddxplusDir);
  const readSet = async (path: string) => {
    const raw = await readFile(path, 'utf8');
    return { path, raw, vignettes: parseVignettes(raw, vocab, path) };
  };
  const blind = (o.calibrateOn ?? []).filter((p) => o.heldOutPaths.includes(p));
  if (blind.length > 0) throw new InputError(`--calibrate-on: ${blind.join(', ')} is a held-out (blind) set; calibrate on dev sets only`, { field: 'calibrate-on' });
  const devSet = await readSet(o.vignettesPath);
  const { raw } = devSet;
  const vignettes = selectVignettes(devSet.vignettes, o.ids);
  const heldOut = await Promise.all(o.heldOutPaths.map(readSet));
  const graph = new GraphStore(o.config.neo4j);
  await graph.connect();
  try {
    const buildSeconds = o.build ? await build(o, graph) : null;
    if (buildSeconds !== null) o.log(`free-text: KG built from ${o.split ? 'the train part' : 'every shipped record'} in ${buildSeconds.toFixed(1)} s`);
    const embedder = createEmbedder(o.config);
    // With a calibration to fit, every figure before it is of the uncalibrated posterior (a --skip-build rerun may find one stored).
    const service = await openQueryService({
      graph, dataDir: o.config.dataDir, embedder, reasoners: await createReasoners(o.config, createLogger({ level: 'warn' })),
      ...(o.config.query?.recordRetrieval ? { recordRetrieval: o.config.query.recordRetrieval } : {}), ...(o.calibrateOn?.length ? { calibrated: false } : {}),
    });
    const goldOf = diagnosisToDisease(service.snapshot);
    const train = await trainTexts(o.ddxplusDir, o.split);
    const labeled: LabeledText[] = train.map((r) => ({ text: r.text, label: goldOf.get(r.diagnosis.toLowerCase()) ?? `raw:${r.diagnosis}` }));
    const ctx = { service, baseline: TfidfKnn.fit(labeled, { k: o.k }), goldOf };
    const dev = await runSet(ctx, vignettes, o.log);
    const held: FreeTextReport['heldOut'] = [];
    for (const h of heldOut) held.push({ set: setInfo(h.path, h.raw, h.vignettes), ...(await runSet(ctx, h.vignettes, o.log)) });
    // After the accuracy runs (which therefore measure the build as it was): calibrate, reopen, re-score.
    const calibration = o.calibrateOn && o.calibrateOn.length > 0
      ? await freeTextCalibration({
          config: o.config, calibrateOn: o.calibrateOn, goldOf, log: o.log, ...(o.calibrationWithout?.length ? { without: o.calibrationWithout } : {}),
          sets: [{ path: o.vignettesPath, vignettes, tunedOn: true }, ...heldOut.map((h) => ({ path: h.path, vignettes: h.vignettes }))],
          open: async () => openQueryService({ graph, dataDir: o.config.dataDir, embedder, reasoners: await createReasoners(o.config, createLogger({ level: 'warn' })) }),
        }, service)
      : undefined;
    return {
      set: setInfo(o.vignettesPath, raw, vignettes),
      split: o.split,
      trainRecords: train.length,
      k: o.k,
      build: { buildId: service.snapshot.buildId, seconds: buildSeconds },
      embedder: embedder.id,
      ...dev,
      heldOut: held,
      ...(calibration ? { calibration } : {}),
    };
  } finally {
    await graph.close();
  }
}
