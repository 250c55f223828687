/**
 * The report's calibration section (issue 26): the metrics of calibration-metrics.ts over
 * the full protocol's cases and over the interactive protocol's differential at each
 * question count (the first turn is /v1/diagnose's; later ones the session's posterior).
 * Cases whose truth is no disease of the KG, or that were refused, have no probability: left out.
 */
import type { InputKind } from '../calibration/temperature.js';
import { calibrationMetrics, probabilityCase, type CalibrationMetrics } from './calibration-metrics.js';
import type { DialogueOutcome } from './dialogue-protocols.js';
import type { CalibrationReport, EvalCase } from './types.js';

export function calibrationReport(input: {
  cases: readonly EvalCase[];
  interactive: DialogueOutcome | null;
  truth: (recordId: string) => string;
  diseaseCount: number;
  /** The input kinds the build's calibration covers. */
  calibratedKinds: readonly InputKind[];
  /** What the full protocol's cases are (`eval --input`: findings are coded, text is free text); the interactive turns are coded. */
  inputKind: InputKind;
  seed: number;
}): CalibrationReport {
  const full = calibrationMetrics(input.cases.flatMap((c) => (c.probability ? [c.probability] : [])), { seed: input.seed });
  let interactive: Record<string, CalibrationMetrics> | null = null;
  if (input.interactive?.shown) {
    interactive = {};
    const o = input.interactive;
    const shownAll = o.shown!;
    const ks = [...new Set(shownAll.flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
    for (const k of ks) {
      const cases = o.runs.flatMap((run, i) => {
        const shown = shownAll[i]?.get(k);
        const truth = input.truth(run.recordId);
        return shown && truth ? [probabilityCase(shown, truth, input.diseaseCount)] : [];
      });
      const m = calibrationMetrics(cases, { seed: input.seed });
      if (m) interactive[String(k)] = m;
    }
  }
  return { full, interactive, calibrated: input.calibratedKinds.includes(input.inputKind), calibrated_kinds: [...input.calibratedKinds], input_kind: input.inputKind };
}
