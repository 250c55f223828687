/**
 * Every build calibrates itself (issue 48), by cross-fitting: a KG built from the build's
 * patients but a held-out share (held-out-share.ts) answers the held-out patients (coded, and as
 * text: their rendered records and their notes) and, for a KG whose diseases they name, the
 * labelled text shipped with the product (shipped-text-cases.ts); further disjoint shares are held
 * out in turn (held-out-share.ts: by default every patient once, up to MAX_HELD_OUT_PATIENTS), each
 * answered by a KG of the others, coded only: the coded fit needs enough chief complaints for a
 * calibration of their own (fit-strata.ts), while the text fit has the shipped text and gained
 * nothing from more folds (docs/eval.md, 29 Nov night). The calibration fitted on all those answers
 * is then stored with the KG built from ALL the patients, which serves. The served KG
 * loses no training data; the price is one more build per fold (docs/kg-build.md has the measured cost).
 * A fit KG never reaches Neo4j: it is answered from memory (kg-build/memory-snapshot.ts,
 * src/query/memory-differences.ts), so a server on the same Neo4j keeps serving its build until
 * the served one's load, the graph changes once per build, and a fold pays no load and read-back.
 * The fit KG, built from a share less, is a little less sure than the served one: its
 * calibration errs, if at all, towards modesty (docs/eval.md#calibration measures the result).
 * A build with too few patients to hold out enough is served uncalibrated, and its manifest says why.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { BuildManifest } from '../domain/artifacts.js';
import type { NormalizedRecord } from '../domain/record.js';
import { markUncalibrated, writeCalibration, type CalibrationFile } from './calibration-file.js';
import { calibrationFile } from './fit-stage.js';
import { fitCalibrationOffThread } from './fit-off-thread.js';
import { splitUnitOf } from '../sources/split.js';
import { isHeldOut, planHeldOut, type HeldOutPlan } from './held-out-share.js';
import type { CollectedSamples } from './fit-stage.js';
import { collectCalibration } from './run-calibration.js';
import { shippedTextCases } from './shipped-text-cases.js';
import type { MemoryKg } from '../query/memory-differences.js';
import { defaultConceptDeps } from '../query/query-service.js';

type Built = { buildId: string; manifest: BuildManifest };

export interface CrossFitDeps<B extends Built> {
  config: Config;
  /** Builds the KG of the records `include` keeps (all when null) into `dataDir` and makes it current there. */
  build(dataDir: string, include: ((r: NormalizedRecord) => boolean) | null): Promise<B>;
  /** A fit KG of the records `include` keeps: its artifacts current in `dataDir`, its graph in memory only (never Neo4j). */
  fitBuild(dataDir: string, include: (r: NormalizedRecord) => boolean): Promise<Built & { memory: MemoryKg }>;
  /** One fresh pass over the source's records. */
  records(): AsyncIterable<NormalizedRecord>;
  /** A fresh predicate of the records the build keeps (its own --test-fraction split's train part; stateful when stratified). */
  inBuild(): (r: NormalizedRecord) => boolean;
  log(line: string): void;
  onProgress?: (done: number, total: number) => void;
  share?: number;
  /** Disjoint held-out shares, each answered by a KG of the others (default 1). */
  folds?: number;
  /** Sees the fit's raw scores (run-calibration.ts). */
  onSamples?: (samples: CollectedSamples) => void;
}

export interface CrossFitOutcome<B> {
  served: B;
  plan: HeldOutPlan;
  /** Null when the build was too small (plan.tooSmall says why). */
  calibration: CalibrationFile | null;
  /** Wall time of the fit build and the fit itself, beside the served build's. */
  ms: { fitBuild: number; fit: number; servedBuild: number };
}

export async function buildCalibrated<B extends Built>(deps: CrossFitDeps<B>): Promise<CrossFitOutcome<B>> {
  const { config } = deps;
  const plan = await planHeldOut(deps.records(), deps.inBuild(), { ...(deps.share === undefined ? {} : { share: deps.share }), ...(deps.folds === undefined ? {} : { folds: deps.folds }) });
  const ms = { fitBuild: 0, fit: 0, servedBuild: 0 };
  const t = () => performance.now();
  if (plan.tooSmall) {
    const t0 = t();
    const served = await deps.build(config.dataDir, null);
    ms.servedBuild = t() - t0;
    const manifest = await markUncalibrated(config.dataDir, served.manifest, `too small to calibrate: ${plan.tooSmall}; probabilities are the raw posterior (likely overconfident): read the ranks`);
    return { served: { ...served, manifest }, plan, calibration: null, ms };
  }
  const { share, folds } = plan;
  // The fit KGs live in a data dir of their own: the real one's `current` only ever names the served build.
  const fitDir = join(config.dataDir, '.calibration-fit');
  try {
    // Fold by fold: a KG of the build's patients but that fold's share answers them (the shipped text once, on the first).
    const parts: CollectedSamples[] = [];
    const sources: string[] = [];
    let basis = '';
    const [shipped, concepts] = await Promise.all([shippedTextCases(), defaultConceptDeps()]);
    for (let fold = 0; fold < folds; fold++) {
      await rm(fitDir, { recursive: true, force: true });
      const keep = deps.inBuild();
      const heldOut: NormalizedRecord[] = [];
      for await (const r of deps.records()) if (keep(r) && isHeldOut(r, share, fold)) heldOut.push(r);
      const units = new Set(heldOut.map(splitUnitOf)).size;
      deps.log(`calibration: building a KG of ${plan.units - units} patients, ${units} (${pct(share)}) held out to fit on${folds > 1 ? ` (fold ${fold + 1} of ${folds})` : ''}`);
      let t0 = t();
      const fit = await deps.fitBuild(fitDir, (r) => !isHeldOut(r, share, fold));
      ms.fitBuild += t() - t0;
      t0 = t();
      const got = await collectCalibration({ ...config, dataDir: fitDir }, {
        memory: fit.memory, concepts, records: heldOut, textCases: [], sources: [`held-out: ${units} patients (${heldOut.length} records) of the build's source${folds > 1 ? ` (fold ${fold + 1})` : ''}`],
        // Ids differ by construction; two patients alike in content are two patients.
        allowContentDuplicates: true, ...(fold === 0 ? { shippedText: shipped } : { kinds: ['coded'] as const }), basis: crossFitBasis(plan), ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
      });
      ms.fit += t() - t0;
      parts.push(got.samples);
      sources.push(...got.sources);
      if (fold === 0) basis = got.basis;
    }
    const samples = mergeSamples(parts);
    deps.onSamples?.(samples);
    // The fit on a thread of its own, beside the served build (fit-off-thread.ts): neither needs
    // the other until the calibration is written with the served build.
    const tFit = t();
    const fitting = fitCalibrationOffThread(samples).then(
      (fits) => {
        ms.fit += t() - tFit;
        return fits;
      },
      (e: unknown) => e as Error,
    );
    deps.log('calibration: building the served KG from every patient');
    const t1 = t();
    const served = await deps.build(config.dataDir, null).catch(async (e: unknown) => {
      await fitting; // no thread left running behind a failed build
      throw e;
    });
    ms.servedBuild = t() - t1;
    const fits = await fitting;
    if (fits instanceof Error) {
      // The served build is current: it says it is uncalibrated and why, and the build fails.
      await markUncalibrated(config.dataDir, served.manifest, `not calibrated: ${fits.message}; probabilities are the raw posterior (likely overconfident): read the ranks`);
      throw fits;
    }
    const calibration = { ...calibrationFile(served.buildId, fits, samples, sources), ...(basis ? { basis } : {}) };
    const manifest = await writeCalibration(config.dataDir, served.manifest, calibration);
    return { served: { ...served, manifest }, plan, calibration, ms };
  } finally {
    await rm(fitDir, { recursive: true, force: true });
  }
}

function crossFitBasis(plan: HeldOutPlan): string {
  const each = plan.folds > 1 ? `${plan.folds} disjoint shares of ${pct(plan.share)} held out in turn, each answered by a KG of the others (${plan.heldOutUnits} of ${plan.units} patients held out once; coded input from every share, text from the first)` : `a KG of the build's patients but ${pct(plan.share)} held out (${plan.heldOutUnits} of ${plan.units}) answered them`;
  return `cross-fit: ${each}; the fit is served with the KG of all ${plan.units}`;
}

/** One fold's samples after another, counts summed. */
export function mergeSamples(parts: readonly CollectedSamples[]): CollectedSamples {
  const byKind: CollectedSamples['byKind'] = { coded: [], text: [] };
  const counts: Record<string, number> = {};
  for (const p of parts) {
    byKind.coded.push(...p.byKind.coded);
    byKind.text.push(...p.byKind.text);
    for (const [k, n] of Object.entries(p.counts)) counts[k] = (counts[k] ?? 0) + n;
  }
  return { byKind, counts };
}

const pct = (x: number) => `${(100 * x).toFixed(x < 0.01 ? 2 : 0)}%`;
