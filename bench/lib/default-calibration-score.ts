/**
 * The blind free text through one build twice, its calibration ignored and applied (bench/default-calibration.ts):
 * issue 48's goals on the pooled sets. Metrics: src/eval/calibration-metrics.ts (the listed
 * differential; what it leaves unlisted spread evenly over the unlisted diseases).
 */
import type { TextCase } from '../../src/calibration/text-cases.js';
import { InputError } from '../../src/errors.js';
import { calibrationMetrics, probabilityCase, type CalibrationMetrics, type ProbabilityCase } from '../../src/eval/calibration-metrics.js';
import { diagnosisToDisease } from '../../src/query/evaluate-ask.js';
import { openQueryService, textInput, type QueryService } from '../../src/query/query-service.js';
import { collectSamples, scoreCapture } from '../../src/calibration/fit-stage.js';
import { casesFromRecords, casesFromText } from '../../src/calibration/held-out-cases.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { truthResolver } from '../../src/eval/hierarchy-levels.js';
import { samplesJson } from '../../src/calibration/samples-file.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';

export interface BlindScores {
  before: CalibrationMetrics;
  after: CalibrationMetrics;
  /** Top-1 / top-3 right, before and after (a calibration never reorders: equal). */
  top: { before: [number, number]; after: [number, number]; n: number };
  /** Cases whose condition the KG has no disease for, or the pipeline refused. */
  skipped: number;
  /** Brier score of the top-1 probability alone, (p_top − right)², mean over cases. */
  top1Brier: { before: number; after: number };
}

const top1Brier = (xs: readonly ProbabilityCase[]) => xs.reduce((s, x) => s + (x.top - (x.correct ? 1 : 0)) ** 2, 0) / Math.max(1, xs.length);

export async function scoreBlindSets(o: { before: QueryService; after: QueryService; cases: readonly TextCase[]; log: (l: string) => void }): Promise<BlindScores> {
  const gold = diagnosisToDisease(o.after.snapshot);
  const D = o.after.snapshot.diseases.length;
  const b: ProbabilityCase[] = [];
  const c: ProbabilityCase[] = [];
  const top = { before: [0, 0] as [number, number], after: [0, 0] as [number, number], n: 0 };
  let skipped = 0;
  const tally = (t: [number, number], ids: string[], truth: string) => {
    const r = ids.indexOf(truth);
    if (r === 0) t[0]++;
    if (r >= 0 && r < 3) t[1]++;
  };
  for (const [i, v] of o.cases.entries()) {
    const truth = gold.get(v.condition.toLowerCase());
    if (truth === undefined) {
      skipped++;
      continue;
    }
    let rb;
    let ra;
    try {
      rb = await o.before.diagnose(textInput(v.text));
      ra = await o.after.diagnose(textInput(v.text));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      skipped++;
      continue;
    }
    b.push(probabilityCase(rb.differential.map((d) => ({ diseaseId: d.diseaseId, p: d.score })), truth, D));
    c.push(probabilityCase(ra.differential.map((d) => ({ diseaseId: d.diseaseId, p: d.score })), truth, D));
    tally(top.before, rb.differential.map((d) => d.diseaseId), truth);
    tally(top.after, ra.differential.map((d) => d.diseaseId), truth);
    top.n++;
    if ((i + 1) % 100 === 0) o.log(`${i + 1}/${o.cases.length} blind cases`);
  }
  return { before: calibrationMetrics(b)!, after: calibrationMetrics(c)!, top, skipped, top1Brier: { before: top1Brier(b), after: top1Brier(c) } };
}

const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Issue 48's goals on the pooled blind text, each with its figures before → after. */
export function formatGoals(s: BlindScores): string {
  const { before: b, after: a, top } = s;
  const under = (m: CalibrationMetrics) => `${pct(m.truth_under_1pct)} (${Math.round(m.truth_under_1pct * m.n)} of ${m.n})`;
  const goals: [string, boolean, string][] = [
    ['ECE ≤ 0.05', a.ece <= 0.05, `${f3(b.ece)} [${f3(b.ci95.ece[0])}, ${f3(b.ci95.ece[1])}] → ${f3(a.ece)} [${f3(a.ci95.ece[0])}, ${f3(a.ci95.ece[1])}] (a calibrated system shows ${f3(a.ece_if_calibrated)} here, p ${a.ece_consistency_p.toFixed(2)})`],
    ['truth < 1% or unlisted ≤ 3%', a.truth_under_1pct <= 0.03, `${under(b)} → ${under(a)}`],
    ['top-1 Brier no worse', s.top1Brier.after <= s.top1Brier.before + 1e-12, `${f3(s.top1Brier.before)} → ${f3(s.top1Brier.after)} (every disease: ${f3(b.brier)} → ${f3(a.brier)})`],
    ['log-loss no worse', a.log_loss <= b.log_loss + 1e-12, `${f3(b.log_loss)} → ${f3(a.log_loss)}`],
    ['top-1 p AUROC within 0.02', a.auroc !== null && b.auroc !== null && a.auroc >= b.auroc - 0.02, `${f3(b.auroc)} → ${f3(a.auroc)}`],
    ['top-1 / top-3 unchanged', top.before[0] === top.after[0] && top.before[1] === top.after[1], `${pct(top.before[0] / top.n)} / ${pct(top.before[1] / top.n)} → ${pct(top.after[0] / top.n)} / ${pct(top.after[1] / top.n)}`],
  ];
  return [
    `blind free text pooled (n ${a.n}; ${s.skipped} skipped: no KG disease or refused), uncalibrated → calibrated; mean top-1 p ${pct(b.mean_top1)} → ${pct(a.mean_top1)}:`,
    ...goals.map(([name, met, fig]) => `  ${met ? '✓' : '✗'} ${name.padEnd(28)} ${fig}`),
  ].join('\n');
}

/** The blind cases' raw scores on the served KG as samples JSON (src/calibration/samples-file.ts), cases the KG has no disease for left out. */
export async function blindSamples(o: Omit<Parameters<typeof openQueryService>[0], 'reasoners' | 'calibrated'> & { cases: readonly TextCase[] }): Promise<string> {
  const capture = scoreCapture();
  const query = await openQueryService({ ...o, reasoners: [new EvidenceReasoner({}, { onScores: capture.onScores })] });
  const gold = diagnosisToDisease(query.snapshot);
  const named = o.cases.filter((c) => gold.has(c.condition.toLowerCase()));
  const samples = await collectSamples({ diagnose: (i) => query.diagnose(i), snapshot: query.snapshot, capture }, casesFromText(named, (c) => gold.get(c.condition.toLowerCase()) ?? null));
  return samplesJson(samples);
}

/**
 * The held-out DDXPlus patients' raw scores on the served KG, coded, one samples file per variant
 * (held-out-cases.ts: the chief complaint is the interactive protocol's first turn, @0): refit
 * experiments score @0 in seconds (bench/calibration-tail.ts --held-out). Numbers only.
 */
export async function heldOutSamples(o: Omit<Parameters<typeof openQueryService>[0], 'reasoners' | 'calibrated'> & { records: readonly NormalizedRecord[] }): Promise<Record<string, string>> {
  const capture = scoreCapture();
  const query = await openQueryService({ ...o, reasoners: [new EvidenceReasoner({}, { onScores: capture.onScores })] });
  const truthOf = truthResolver(query.snapshot);
  const cases = casesFromRecords(o.records, (r) => truthOf(r).diseaseId).filter((c) => c.kind === 'coded');
  const out: Record<string, string> = {};
  for (const variant of new Set(cases.map((c) => c.variant))) {
    const samples = await collectSamples({ diagnose: (i) => query.diagnose(i), snapshot: query.snapshot, capture }, cases.filter((c) => c.variant === variant));
    out[variant] = samplesJson(samples);
  }
  return out;
}
