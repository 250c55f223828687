/**
 * The evaluation use case: leakage check, then the requested protocols over the test
 * patients, then the report. Everything outside (query service, consultation sessions,
 * progress bar) is passed in; the CLI wires the same objects the server wires.
 */
import type { Progress } from '../../kg-build/progress.js';
import type { NormalizedRecord } from '../domain/record.js';
import { InputError } from '../errors.js';
import type { RankerName } from '../followups/ranker.js';
import { KG_BUILD_IDS } from '../followups/record-kg.js';
import type { BuildManifest } from '../domain/artifacts.js';
import { INPUT_KINDS, type PosteriorCalibration } from '../calibration/temperature.js';
import type { DiagnoseOptions } from '../query/contracts.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { RecordRow } from '../query/retrieve-records.js';
import { interactiveStart, maskedStart, runDialogues, type DialogueOutcome } from './dialogue-protocols.js';
import { truthResolver } from './hierarchy-levels.js';
import { assertNoLeakage, findLeakage, indexedRecords, type LeakageReport, type TrainPatients } from './leakage.js';
import { heldOutReport, type HeldOutPlan } from './held-out.js';
import { dialogueMetrics } from './dialogue-metrics.js';
import type { SplitSummary } from '../domain/artifacts.js';
import type { RecordWorld } from '../followups/simulate.js';
import { assembleReport } from './report-json.js';
import { calibrationReport } from './calibration-report.js';
import { runFullProtocol, type DiagnoseService, type InputMode } from './run-full.js';
import type { SessionPort } from './session-dialogue.js';
import type { EvalCase, EvalReport } from './types.js';

export const PROTOCOLS = ['full', 'interactive', 'masking'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface EvalParams {
  protocols: readonly Protocol[];
  /** Question counts at which the interactive / masking accuracy is read. */
  questions: readonly number[];
  /** Shares of findings masked (0, 0.33, 0.66, 1). */
  maskRates: readonly number[];
  ranker: RankerName;
  /** Session confidence at which a consultation says "stop asking" (for mean questions to a confident answer). */
  confidence: number;
  input: InputMode;
  options: Partial<DiagnoseOptions>;
  seed: number;
  limit: number | null;
  allowContentDuplicates: boolean;
  testSource: string;
  /** What the simulated patient says to what its record does not list: closed (DDXPlus) "no", open (other sources) "don't know". */
  world?: RecordWorld;
}

/** The test records are the held-out side of a split (src/eval/held-out.ts), as read from the test source. */
export interface EvalHeldOut {
  plan: HeldOutPlan;
  seen: SplitSummary;
  train: TrainPatients | null;
}

/** What the test source gave: rows read, records, rows skipped by reason, notes read (EvalReport.test_source). */
export interface TestSourceReport {
  description: string;
  rows_read: number;
  records: number;
  skipped: number;
  skipped_by_reason: Record<string, number>;
  /** Test records whose notes were read into findings (with the build's note reader). */
  notes_read: number;
}

export interface EvalDeps {
  query: DiagnoseService & { snapshot: KgSnapshot; artifacts: { manifest: BuildManifest; records: ReadonlyMap<string, RecordRow>; calibration?: PosteriorCalibration | null } };
  /** The consultation use case (src/sessions); required by the interactive and masking protocols. */
  sessions: SessionPort | null;
  progress: Progress;
}

export interface EvalRun {
  report: EvalReport;
  cases: EvalCase[];
}

/**
 * `context.leakage`: the check readEvalInput (eval-input.ts) made on the same records before the
 * KG was opened; without it the records are checked here, against the opened build's rows.
 */
export async function runEval(deps: EvalDeps, records: readonly NormalizedRecord[], params: EvalParams, context: { heldOut?: EvalHeldOut | null; testSource?: TestSourceReport | null; leakage?: LeakageReport } = {}): Promise<EvalRun> {
  const heldOut = context.heldOut ?? null;
  const leakage = context.leakage ?? findLeakage(records, indexedRecords(deps.query.artifacts.records.values()), heldOut?.train ?? null);
  assertNoLeakage(leakage, { allowContentDuplicates: params.allowContentDuplicates, heldOut: heldOut !== null });
  const { snapshot } = deps.query;
  const truthOf = truthResolver(snapshot);
  const truths = new Map(records.map((r) => [r.id, truthOf(r)] as const));
  const truthId = new Map([...truths].map(([id, t]) => [id, t.diseaseId ?? ''] as const));
  const wants = (p: Protocol) => params.protocols.includes(p);
  if ((wants('interactive') || wants('masking')) && !deps.sessions) throw new InputError('--protocol interactive|masking needs the consultation sessions (none wired)', { field: 'protocol' });

  let cases: EvalCase[] = [];
  if (wants('full')) {
    deps.progress.start('full', records.length);
    cases = await runFullProtocol({ query: deps.query, snapshot }, { records, truth: truthOf, mode: params.input, options: params.options, onCase: (n) => deps.progress.update(n) });
    deps.progress.stop();
  }
  const dialogue = async (label: string, start: Parameters<typeof runDialogues>[1]): Promise<DialogueOutcome> => {
    let done = 0;
    deps.progress.start(label, records.length);
    const out = await runDialogues(deps.sessions!, start, {
      records, truth: (id) => truthId.get(id) ?? '', ranker: params.ranker, checkpoints: params.questions, scheme: KG_BUILD_IDS, ...(params.world ? { world: params.world } : {}), onDialogue: () => deps.progress.update(++done),
    });
    deps.progress.stop();
    return out;
  };
  const interactive = wants('interactive') ? await dialogue('interactive', interactiveStart) : null;
  const masking = new Map<number, DialogueOutcome>();
  if (wants('masking')) for (const rate of params.maskRates) masking.set(rate, await dialogue(`mask ${Math.round(rate * 100)}%`, (rec) => maskedStart(snapshot, rec, rate, KG_BUILD_IDS)));

  const manifest = deps.query.artifacts.manifest;
  const report = assembleReport({ cases, interactive, masking, params, confidence: params.confidence, manifest, buildId: snapshot.buildId, n: records.length });
  // The held-out part and the test source, beside the metrics (issue 25).
  report.held_out = heldOut ? heldOutReport(heldOut.plan, heldOut.seen, manifest, leakage) : null;
  report.test_source = context.testSource ?? null;
  const diseaseName = (id: string) => snapshot.diseases[snapshot.diseaseIndex.get(id) ?? -1]?.name ?? id;
  const truthOfRun = (id: string) => {
    const t = truths.get(id);
    return { id: t?.diseaseId ?? `unknown:${t?.name ?? ''}`, name: t?.name ?? '' };
  };
  report.interactive_metrics = interactive ? dialogueMetrics(interactive.runs, truthOfRun, diseaseName, params.questions) : null;
  report.calibration = calibrationReport({
    cases, interactive, truth: (id) => truthId.get(id) ?? '', diseaseCount: snapshot.diseases.length, calibratedKinds: INPUT_KINDS.filter((k) => deps.query.artifacts.calibration?.kinds[k] !== undefined), inputKind: params.input === 'text' ? 'text' : 'coded', seed: params.seed,
  });
  return { report, cases };
}
