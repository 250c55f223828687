/**
 * The calibration stage: held-out cases (held-out-cases.ts) through the served diagnose path,
 * each query's raw log-scores of every disease captured from the evidence reasoner
 * (EvidenceReasoner's onScores hook), then one fit per input kind (fit-temperature.ts; one per
 * stratum where a level of completeness many cases share stands apart, fit-strata.ts). The caller writes the result with the build (calibration-file.ts).
 */
import { InputError } from '../errors.js';
import type { DiagnoseInput } from '../query/contracts.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { ScoredPosterior } from '../reasoners/evidence-reasoner.js';
import type { CalibrationFile } from './calibration-file.js';
import type { CalibrationSample, TemperatureFit } from './fit-temperature.js';
import { fitKindCalibration } from './fit-strata.js';
import type { CalibrationCase } from './held-out-cases.js';
import { INPUT_KINDS, type InputKind } from './temperature.js';

/** Fewer cases than this leave a kind uncalibrated (β = 1): two parameters need some support. */
export const MIN_CASES_PER_KIND = 30;

/** Set by the evidence reasoner's hook; read after each sequential query. */
export interface ScoreCapture {
  last: ScoredPosterior | null;
  onScores(s: ScoredPosterior): void;
}

export function scoreCapture(): ScoreCapture {
  const c: ScoreCapture = { last: null, onScores: (s) => { c.last = s; } };
  return c;
}

export interface CollectedSamples {
  byKind: Record<InputKind, CalibrationSample[]>;
  /** Cases per variant that produced a sample, and those the pipeline refused (no usable findings). */
  counts: Record<string, number>;
}

export async function collectSamples(
  deps: { diagnose(input: DiagnoseInput): Promise<unknown>; snapshot: Pick<KgSnapshot, 'diseaseIndex'>; capture: ScoreCapture },
  cases: readonly CalibrationCase[],
  onCase?: (done: number) => void,
): Promise<CollectedSamples> {
  const byKind: Record<InputKind, CalibrationSample[]> = { coded: [], text: [] };
  const counts: Record<string, number> = {};
  let done = 0;
  for (const c of cases) {
    deps.capture.last = null;
    try {
      await deps.diagnose(c.input);
    } catch (e) {
      // A case the pipeline refuses (no findings) has no posterior to fit; counted, not hidden.
      if (!(e instanceof InputError)) throw e;
      counts[`${c.variant}:refused`] = (counts[`${c.variant}:refused`] ?? 0) + 1;
      onCase?.(++done);
      continue;
    }
    const got = deps.capture.last as ScoredPosterior | null;
    const truth = deps.snapshot.diseaseIndex.get(c.truth);
    if (got === null || truth === undefined) throw new InputError(`calibration: the evidence reasoner did not score a ${c.variant} case (an LLM reasoner answered?); calibrate with the evidence reasoner`, { field: 'reasoner' });
    // The kind the reasoner itself assigned: that is the one the calibration will be applied under.
    byKind[got.kind].push({ scores: got.scores, truth, completeness: got.completeness });
    counts[c.variant] = (counts[c.variant] ?? 0) + 1;
    onCase?.(++done);
  }
  return { byKind, counts };
}

export function fitCalibration(samples: CollectedSamples): Partial<Record<InputKind, TemperatureFit>> {
  const out: Partial<Record<InputKind, TemperatureFit>> = {};
  for (const kind of INPUT_KINDS) {
    const xs = samples.byKind[kind];
    if (xs.length < MIN_CASES_PER_KIND) continue;
    out[kind] = fitKindCalibration(xs);
  }
  return out;
}

export function calibrationFile(buildId: string, fits: Partial<Record<InputKind, TemperatureFit>>, samples: CollectedSamples, sources: string[], now = new Date()): CalibrationFile {
  return { schema: 'dxgraph-calibration/1', method: 'temperature', buildId, kinds: fits, heldOut: { sources, cases: samples.counts }, createdAt: now.toISOString() };
}
