/**
 * The raw scores a calibration is fitted on, saved as JSON for refit experiments
 * (`dxgraph build --calibration-samples`, bench/calibration-tail.ts): per input kind, every
 * disease's log-score, the truth's index and the completeness. Numbers only: no text, no ids.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ArtifactError, errorMessage } from '../errors.js';
import type { CollectedSamples } from './fit-stage.js';
import type { CalibrationSample } from './fit-temperature.js';

const Sample = z.object({ scores: z.array(z.number()), truth: z.number().int().nonnegative(), completeness: z.number() });
const SamplesFile = z.object({ coded: z.array(Sample), text: z.array(Sample) });
export type SavedSamples = Record<'coded' | 'text', CalibrationSample[]>;

export function samplesJson(s: Pick<CollectedSamples, 'byKind'>): string {
  const plain = (xs: readonly CalibrationSample[]) => xs.map((x) => ({ scores: Array.from(x.scores), truth: x.truth, completeness: x.completeness }));
  return JSON.stringify({ coded: plain(s.byKind.coded), text: plain(s.byKind.text) });
}

export async function readSamples(path: string): Promise<SavedSamples> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new ArtifactError(path, `calibration samples ${path} are missing or not JSON: ${errorMessage(e)}`, { cause: e });
  }
  const parsed = SamplesFile.safeParse(json);
  if (!parsed.success) throw new ArtifactError(path, `calibration samples ${path} are corrupt: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
