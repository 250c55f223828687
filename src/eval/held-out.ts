/**
 * The held-out part of a source (issue 25): which split `dxgraph eval` applies to its test
 * source, and the stream of that split's test side. A build made with `--test-fraction/--seed`
 * records its split (BuildManifest.split); evaluating on the same source takes its test side
 * back, by patient when the source names patients. `--test-fraction/--seed` name a split
 * explicitly (e.g. the same database under another address).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDir, type BuildManifest, type SplitSummary } from '../domain/artifacts.js';
import type { NormalizedRecord } from '../domain/record.js';
import { InputError } from '../errors.js';
import { validateSplitOptions, type SplitOptions } from '../sources/split.js';
import { createSplitTracker, type SplitTracker } from '../sources/split-tracker.js';

export interface HeldOutPlan {
  split: SplitOptions & { stratify: boolean };
  /** build: the split the build recorded; flags: --test-fraction/--seed. */
  from: 'build' | 'flags';
}

/** A build's source description may join several sources and note dropped demographics. */
function sourcesOf(description: string): string[] {
  return description.replace(/ \(demographics dropped\)$/, '').split(' + ');
}

/**
 * The split to apply: explicit flags first; else the build's own, when the test source is (one
 * of) the source(s) the build read; else none (a separate test source is evaluated whole).
 */
export function chooseHeldOut(manifest: BuildManifest, testSource: string, flags: { testFraction: number | null; seed: number | null }): HeldOutPlan | null {
  if (flags.testFraction !== null) {
    if (flags.seed === null) throw new InputError('--test-fraction needs --seed (the seed of the split the build used)', { field: 'seed' });
    const split = { testFraction: flags.testFraction, seed: flags.seed, stratify: manifest.split?.stratify ?? false };
    validateSplitOptions(split);
    return { split, from: 'flags' };
  }
  const s = manifest.split;
  if (!s || !sourcesOf(manifest.source).includes(testSource)) return null;
  return { split: { testFraction: s.testFraction, seed: s.seed, stratify: s.stratify }, from: 'build' };
}

/** The test side of the split, in source order; the tracker sees every record, so its counts cover both sides. */
export async function* heldOutRecords(records: AsyncIterable<NormalizedRecord>, tracker: SplitTracker): AsyncIterable<NormalizedRecord> {
  for await (const r of records) if (tracker.part(r) === 'test') yield r;
}

export const heldOutTracker = (plan: HeldOutPlan): SplitTracker => createSplitTracker(plan.split);

/** Digests of the build's training patients (split-patients.json); null when the build's records named none. */
export async function trainPatients(dataDir: string, manifest: BuildManifest): Promise<ReadonlySet<string> | null> {
  const file = manifest.split?.patientsFile;
  if (!file) return null;
  const path = join(buildDir(dataDir, manifest.buildId), file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new InputError(`the build's split names ${path}, which cannot be read: ${(e as Error).message}; rebuild`, { field: 'test', cause: e });
  }
  const train = (parsed as { train?: unknown }).train;
  if (!Array.isArray(train) || !train.every((x) => typeof x === 'string')) throw new InputError(`${path}: expected { "train": [digest, …] }; rebuild`, { field: 'test' });
  return new Set(train);
}

/** What the report says about the held-out part (EvalReport.held_out). */
export interface HeldOutReport {
  from: 'build' | 'flags';
  unit: SplitSummary['unit'];
  test_fraction: number;
  seed: number;
  stratify: boolean;
  /** As this evaluation read the source: records and patients on each side. */
  train: SplitSummary['train'];
  test: SplitSummary['test'];
  /** As the build recorded them (null: the build recorded no split). */
  build_train: SplitSummary['train'] | null;
  build_test: SplitSummary['test'] | null;
  /** Test patients the build trained on: 0, or the evaluation refuses. */
  patients_on_both_sides: number;
  /** Held-out records whose content equals a training record's (other patients): reported, not refused. */
  content_duplicates: number;
}

export function heldOutReport(plan: HeldOutPlan, seen: SplitSummary, manifest: BuildManifest, leakage: { patientOverlap: number; contentOverlap: number }): HeldOutReport {
  return {
    from: plan.from, unit: seen.unit, test_fraction: seen.testFraction, seed: seen.seed, stratify: seen.stratify,
    train: seen.train, test: seen.test, build_train: manifest.split?.train ?? null, build_test: manifest.split?.test ?? null,
    patients_on_both_sides: leakage.patientOverlap, content_duplicates: leakage.contentOverlap,
  };
}
