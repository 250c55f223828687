/**
 * Every build calibrates itself (issue 48), by cross-fitting: a KG built from the build's
 * patients but a held-out share (held-out-share.ts) answers the held-out patients (coded, and as
 * text: their rendered records and their notes) and, for a KG whose diseases they name, the
 * labelled text shipped with the product (shipped-text-cases.ts); the calibration fitted on those
 * answers is then stored with the KG built from ALL the patients, which serves. The served KG
 * loses no training data; the price is a second build (docs/kg-build.md has the measured cost).
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
import { isHeldOut, planHeldOut, type HeldOutPlan } from './held-out-share.js';
import type { CollectedSamples } from './fit-stage.js';
import { runCalibration } from './run-calibration.js';
import { shippedTextCases } from './shipped-text-cases.js';

type Built = { buildId: string; manifest: BuildManifest };

export interface CrossFitDeps<B extends Built> {
  config: Config;
  /** Builds the KG of the records `include` keeps (all when null) into `dataDir` and makes it current there. */
  build(dataDir: string, include: ((r: NormalizedRecord) => boolean) | null): Promise<B>;
  /** One fresh pass over the source's records. */
  records(): AsyncIterable<NormalizedRecord>;
  /** A fresh predicate of the records the build keeps (its own --test-fraction split's train part; stateful when stratified). */
  inBuild(): (r: NormalizedRecord) => boolean;
  log(line: string): void;
  onProgress?: (done: number, total: number) => void;
  share?: number;
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
  const plan = await planHeldOut(deps.records(), deps.inBuild(), deps.share === undefined ? {} : { share: deps.share });
  const ms = { fitBuild: 0, fit: 0, servedBuild: 0 };
  const t = () => performance.now();
  if (plan.tooSmall) {
    const t0 = t();
    const served = await deps.build(config.dataDir, null);
    ms.servedBuild = t() - t0;
    const manifest = await markUncalibrated(config.dataDir, served.manifest, `too small to calibrate: ${plan.tooSmall}; probabilities are the raw posterior (likely overconfident): read the ranks`);
    return { served: { ...served, manifest }, plan, calibration: null, ms };
  }
  const share = plan.share;
  // The fit KG lives in a data dir of its own: the real one's `current` only ever names the served build.
  const fitDir = join(config.dataDir, '.calibration-fit');
  await rm(fitDir, { recursive: true, force: true });
  try {
    deps.log(`calibration: building a KG of ${plan.units - plan.heldOutUnits} patients, ${plan.heldOutUnits} (${pct(share)}) held out to fit on`);
    let t0 = t();
    await deps.build(fitDir, (r) => !isHeldOut(r, share));
    ms.fitBuild = t() - t0;
    const keep = deps.inBuild();
    const heldOut: NormalizedRecord[] = [];
    for await (const r of deps.records()) if (keep(r) && isHeldOut(r, share)) heldOut.push(r);
    const basis = `cross-fit: a KG of the build's patients but ${pct(share)} held out (${plan.heldOutUnits} of ${plan.units}) answered them; the fit is served with the KG of all ${plan.units}`;
    t0 = t();
    const fitted = await runCalibration({ ...config, dataDir: fitDir }, {
      records: heldOut, textCases: [], sources: [`held-out: ${plan.heldOutUnits} patients (${heldOut.length} records) of the build's source`],
      // Ids differ by construction; two patients alike in content are two patients.
      allowContentDuplicates: true, shippedText: await shippedTextCases(), basis, ...(deps.onProgress ? { onProgress: deps.onProgress } : {}), ...(deps.onSamples ? { onSamples: deps.onSamples } : {}),
    });
    ms.fit = t() - t0;
    deps.log('calibration: building the served KG from every patient');
    t0 = t();
    const served = await deps.build(config.dataDir, null);
    ms.servedBuild = t() - t0;
    const calibration = { ...fitted, buildId: served.buildId };
    const manifest = await writeCalibration(config.dataDir, served.manifest, calibration);
    return { served: { ...served, manifest }, plan, calibration, ms };
  } finally {
    await rm(fitDir, { recursive: true, force: true });
  }
}

const pct = (x: number) => `${(100 * x).toFixed(x < 0.01 ? 2 : 0)}%`;
