/**
 * The posterior calibration stored with a build: <dataDir>/builds/<buildId>/calibration.json,
 * named by the manifest's `calibration` entry (src/domain/artifacts.ts). Written by the
 * calibration stage (fit-stage.ts) after the build; read once at query start-up. A manifest
 * without the entry (older builds, builds calibrated on nothing) serves uncalibrated scores
 * and says so (`DiagnoseResult.probability.calibrated: false`); a named file that is missing
 * or corrupt is an ArtifactError, as for every other artifact.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { buildDir, manifestPath, type BuildManifest } from '../domain/artifacts.js';
import { ArtifactError, errorMessage } from '../errors.js';
import type { KindTemperature, PosteriorCalibration } from './temperature.js';

export const CALIBRATION_FILE = 'calibration.json';

const TopLabelMap = z.object({ x: z.array(z.number().min(0).max(1)).min(1), y: z.array(z.number().min(0).max(1)).min(1) }).refine((m) => m.x.length === m.y.length, 'x and y of one length');
const TopOddsMap = z.object({ a: z.number().positive(), b: z.number().finite() });
/** Bands by completeness (top-bands.ts): ascending upper edges, the last one open (null). */
const TopBands = z.array(z.object({ upTo: z.number().finite().nullable(), topLabel: TopLabelMap.nullable().optional(), topOdds: TopOddsMap.nullable().optional() }))
  .min(1)
  .refine((bs) => bs.every((b, i) => (i === bs.length - 1 ? b.upTo === null : b.upTo !== null && (i === 0 || b.upTo > bs[i - 1]!.upTo!))), 'ascending upper edges, the last band open');

const Params = z.object({
  b0: z.number().finite(),
  b1: z.number().finite(),
  tail: z.number().positive().nullable().optional(),
  mix: z.object({ weight: z.number().min(0).max(1), beta: z.number().positive() }).nullable().optional(),
  topLabel: TopLabelMap.nullable().optional(),
  topOdds: TopOddsMap.nullable().optional(),
  topBands: TopBands.nullable().optional(),
});
type Params = z.infer<typeof Params>;
/** One calibration per completeness band (fit-strata.ts): ascending upper edges, the last one open (null). */
const Strata = z.array(z.object({ upTo: z.number().finite().nullable(), params: Params }))
  .min(2)
  .refine((bs) => bs.every((b, i) => (i === bs.length - 1 ? b.upTo === null : b.upTo !== null && (i === 0 || b.upTo > bs[i - 1]!.upTo!))), 'ascending upper edges, the last band open');

const Fit = Params.extend({
  strata: Strata.nullable().optional(),
  n: z.number().int().nonnegative(),
  nllBefore: z.number(),
  nllAfter: z.number(),
  iterations: z.number().int().nonnegative(),
});

export const CalibrationFileSchema = z.object({
  schema: z.literal('dxgraph-calibration/1'),
  method: z.literal('temperature'),
  buildId: z.string().min(1),
  kinds: z.object({ coded: Fit.optional(), text: Fit.optional() }),
  /** What the fit saw: held-out source descriptions and case counts (never patient text). */
  heldOut: z.object({ sources: z.array(z.string()), cases: z.record(z.string(), z.number().int().nonnegative()) }),
  /** How the fit was made, in words (issue 48: the default build's cross-fit; which text it used and why). */
  basis: z.string().optional(),
  createdAt: z.string(),
});
export type CalibrationFile = z.infer<typeof CalibrationFileSchema>;

export function toPosteriorCalibration(f: CalibrationFile): PosteriorCalibration {
  const kinds: PosteriorCalibration['kinds'] = {};
  for (const kind of ['coded', 'text'] as const) {
    const k = f.kinds[kind];
    if (k) kinds[kind] = { ...paramsOf(k), ...(k.strata ? { strata: k.strata.map((b) => ({ upTo: b.upTo, params: paramsOf(b.params) })) } : {}) };
  }
  return { method: 'temperature', kinds };
}

const paramsOf = (k: Params): KindTemperature => ({ b0: k.b0, b1: k.b1, tail: k.tail ?? null, mix: k.mix ?? null, topLabel: k.topLabel ?? null, ...(k.topOdds ? { topOdds: k.topOdds } : {}), ...(k.topBands ? { topBands: k.topBands } : {}) });

/** The build's calibration, or null when its manifest names none. */
export async function readCalibration(dataDir: string, manifest: BuildManifest): Promise<PosteriorCalibration | null> {
  if (!manifest.calibration) return null;
  const path = join(buildDir(dataDir, manifest.buildId), manifest.calibration.file);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new ArtifactError(path, `posterior calibration ${path} is missing or not JSON: ${errorMessage(e)}`, { cause: e });
  }
  const parsed = CalibrationFileSchema.safeParse(json);
  if (!parsed.success) throw new ArtifactError(path, `posterior calibration ${path} is corrupt: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  if (parsed.data.buildId !== manifest.buildId) throw new ArtifactError(path, `posterior calibration ${path} was fitted for build ${parsed.data.buildId}, not ${manifest.buildId}`);
  return toPosteriorCalibration(parsed.data);
}

/** Writes the file, then names it in the manifest (both atomically: temp file + rename). */
export async function writeCalibration(dataDir: string, manifest: BuildManifest, file: CalibrationFile): Promise<BuildManifest> {
  const dir = buildDir(dataDir, manifest.buildId);
  const path = join(dir, CALIBRATION_FILE);
  await writeFile(`${path}.tmp`, `${JSON.stringify(CalibrationFileSchema.parse(file), null, 2)}\n`);
  await rename(`${path}.tmp`, path);
  const { uncalibrated: _was, ...rest } = manifest;
  return writeManifest(dataDir, { ...rest, calibration: { file: CALIBRATION_FILE, ...(file.basis ? { basis: file.basis } : {}) } });
}

/** Says in the manifest why a build that calibrates by default is served uncalibrated (issue 48). */
export async function markUncalibrated(dataDir: string, manifest: BuildManifest, reason: string): Promise<BuildManifest> {
  const { calibration: _none, ...rest } = manifest;
  return writeManifest(dataDir, { ...rest, uncalibrated: reason });
}

async function writeManifest(dataDir: string, next: BuildManifest): Promise<BuildManifest> {
  const mPath = manifestPath(dataDir, next.buildId);
  await writeFile(`${mPath}.tmp`, JSON.stringify(next, null, 2));
  await rename(`${mPath}.tmp`, mPath);
  return next;
}
