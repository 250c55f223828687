import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDir, type BuildManifest, type BuildSplit } from '../src/domain/artifacts.js';
import type { SplitTracker } from '../src/sources/split-tracker.js';

export const SPLIT_PATIENTS_FILE = 'split-patients.json';

/**
 * Records the held-out share with the build's artifacts (issue 25): the split's parameters, its
 * unit and counts in the manifest, the training patients' digests beside it, so `dxgraph eval`
 * can take the held-out part of the same source and check that no patient is on both sides.
 */
export async function recordSplit(dataDir: string, manifest: BuildManifest, tracker: SplitTracker): Promise<BuildManifest> {
  const dir = buildDir(dataDir, manifest.buildId);
  const summary = tracker.summary();
  const train = tracker.patientDigests('train');
  const patientsFile = summary.unit === 'record' ? null : SPLIT_PATIENTS_FILE;
  if (patientsFile) await writeFile(join(dir, patientsFile), JSON.stringify({ train }));
  const split: BuildSplit = { ...summary, patientsFile };
  const out: BuildManifest = { ...manifest, split };
  const path = join(dir, 'manifest.json');
  await writeFile(`${path}.tmp`, JSON.stringify(out, null, 2));
  await rename(`${path}.tmp`, path);
  return out;
}
