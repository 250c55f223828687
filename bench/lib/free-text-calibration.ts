/**
 * The free-text bench's calibration figures (issue 26): every vignette set through the served
 * diagnose path before and after the build's posterior calibration is fitted on the
 * calibration sets (by default datasets/vignettes/cal.jsonl, written blind and never tuned on; never the blind test*.jsonl), with the same
 * metrics `dxgraph eval` reports (src/eval/calibration-metrics.ts: ECE, Brier, log-loss, AUROC
 * of the top-1 probability, true diagnosis under 1%, bootstrap 95% intervals).
 */
import { basename } from 'node:path';
import type { Config } from '../../src/config.js';
import { calibrationMetrics, probabilityCase, type CalibrationMetrics, type ProbabilityCase } from '../../src/eval/calibration-metrics.js';
import { runCalibration } from '../../src/calibration/run-calibration.js';
import { readTextCases } from '../../src/calibration/text-cases.js';
import { formatRankLine } from '../../src/eval/calibration-html.js';
import { InputError } from '../../src/errors.js';
import { textInput, type QueryService } from '../../src/query/query-service.js';
import type { Vignette } from './free-text-set.js';

export interface SetCalibration {
  path: string;
  /** True when this set was among those the calibration was fitted on (its "after" is optimistic). */
  fittedOn: boolean;
  /** True for the set the reader was tuned on (the dev set): read better than unseen text, so no goal is judged on it. */
  tunedOn?: boolean;
  before: CalibrationMetrics | null;
  after: CalibrationMetrics | null;
  /** A pool left out of the goals (a subset chosen by condition): printed, never judged. */
  reportedOnly?: boolean;
  /** Top-1 right before / after: calibration never reorders, so they must be equal. */
  top1: { before: number; after: number };
}

export interface FreeTextCalibration {
  fittedOn: string[];
  sets: SetCalibration[];
}

/** Each scored case with its condition (for the pool without named conditions). */
type Scored = ProbabilityCase & { condition: string };

async function probabilities(service: QueryService, vignettes: readonly Pick<Vignette, 'text' | 'condition'>[], goldOf: ReadonlyMap<string, string>): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const v of vignettes) {
    const gold = goldOf.get(v.condition.toLowerCase());
    if (gold === undefined) continue; // a condition the build has no disease for: no probability to judge
    let res;
    try {
      res = await service.diagnose(textInput(v.text));
    } catch (e) {
      if (e instanceof InputError) continue;
      throw e;
    }
    out.push({ ...probabilityCase(res.differential.map((d) => ({ diseaseId: d.diseaseId, p: d.score })), gold, service.snapshot.diseases.length), condition: v.condition });
  }
  return out;
}

export async function freeTextCalibration(
  o: {
    config: Config; sets: { path: string; vignettes: readonly Pick<Vignette, 'text' | 'condition'>[]; tunedOn?: boolean }[]; calibrateOn: string[]; goldOf: ReadonlyMap<string, string>; open: () => Promise<QueryService>; log: (l: string) => void;
    /** Conditions whose cases a second blind pool leaves out (reported, never a goal): e.g. those the source describes unlike the text does. */
    without?: string[];
  },
  uncalibrated: QueryService,
): Promise<FreeTextCalibration> {
  const before: Scored[][] = [];
  for (const s of o.sets) before.push(await probabilities(uncalibrated, s.vignettes, o.goldOf));
  const textCases = (await Promise.all(o.calibrateOn.map(readTextCases))).flat();
  const file = await runCalibration(o.config, { records: [], textCases, sources: o.calibrateOn.map((p) => `text:${p}`), allowContentDuplicates: false });
  o.log(`free-text: calibration fitted on ${file.kinds.text?.n ?? 0} text cases (b0 ${file.kinds.text?.b0.toFixed(3)}, b1 ${file.kinds.text?.b1.toFixed(3)})`);
  const calibrated = await o.open();
  const sets: SetCalibration[] = [];
  const acc = (xs: { correct: boolean }[]) => xs.filter((x) => x.correct).length / Math.max(1, xs.length);
  const row = (set: { path: string; tunedOn?: boolean }, b: ProbabilityCase[], a: ProbabilityCase[]): SetCalibration => ({
    path: set.path, fittedOn: o.calibrateOn.includes(set.path), ...(set.tunedOn ? { tunedOn: true } : {}), before: calibrationMetrics(b), after: calibrationMetrics(a), top1: { before: acc(b), after: acc(a) },
  });
  const afters: Scored[][] = [];
  for (const [i, s] of o.sets.entries()) {
    afters.push(await probabilities(calibrated, s.vignettes, o.goldOf));
    sets.push(row(s, before[i]!, afters[i]!));
  }
  // The blind sets (neither calibrated on nor tuned on), pooled: one figure on more cases (ECE is
  // noisy on ~100). A tuned-on set is read better than unseen text, so it stays out of the pool.
  const unseen = o.sets.map((s, i) => i).filter((i) => !o.calibrateOn.includes(o.sets[i]!.path) && !o.sets[i]!.tunedOn);
  if (unseen.length > 1) sets.push(row({ path: `pooled (${unseen.length} blind sets)` }, unseen.flatMap((i) => before[i]!), unseen.flatMap((i) => afters[i]!)));
  const without = new Set((o.without ?? []).map((c) => c.toLowerCase()));
  if (unseen.length > 1 && without.size > 0) {
    const keep = (xs: Scored[]) => xs.filter((x) => !without.has(x.condition.toLowerCase()));
    sets.push({ ...row({ path: `pooled (${unseen.length} blind sets) without ${(o.without ?? []).join(', ')}` }, unseen.flatMap((i) => keep(before[i]!)), unseen.flatMap((i) => keep(afters[i]!))), reportedOnly: true });
  }
  return { fittedOn: o.calibrateOn, sets };
}

const f3 = (x: number) => x.toFixed(3);
/** "4.1% (6 of 147)": the count too, so 2 of 98 (2.04%) is not read as meeting "≤ 2%". */
const under = (m: CalibrationMetrics) => `${(100 * m.truth_under_1pct).toFixed(1)}% (${Math.round(m.truth_under_1pct * m.n)} of ${m.n})`;
const ci = (i: [number, number] | null) => (i ? `[${f3(i[0])}, ${f3(i[1])}]` : '');

export function formatFreeTextCalibration(c: FreeTextCalibration): string {
  const lines = [`calibration (issue 26; fitted on ${c.fittedOn.join(', ')}): before → after`];
  for (const s of c.sets) {
    const b = s.before;
    const a = s.after;
    if (!b || !a) continue;
    lines.push(`  ${s.path}${s.fittedOn ? ' (calibrated on)' : s.tunedOn ? ' (tuned on: optimistic, no goal judged)' : s.reportedOnly ? ' (reported, no goal judged)' : ''}: n ${a.n}, top-1 ${(100 * s.top1.before).toFixed(1)}% → ${(100 * s.top1.after).toFixed(1)}%, mean top-1 p ${(100 * b.mean_top1).toFixed(1)}% → ${(100 * a.mean_top1).toFixed(1)}%`);
    lines.push(`    ECE ${f3(b.ece)} ${ci(b.ci95.ece)} → ${f3(a.ece)} ${ci(a.ci95.ece)} (${f3(a.ece_if_calibrated)} if calibrated, p ${a.ece_consistency_p.toFixed(2)})   Brier ${f3(b.brier)} → ${f3(a.brier)} ${ci(a.ci95.brier)}   log-loss ${f3(b.log_loss)} → ${f3(a.log_loss)} ${ci(a.ci95.log_loss)}`);
    lines.push(`    AUROC ${b.auroc === null ? '—' : f3(b.auroc)} → ${a.auroc === null ? '—' : f3(a.auroc)} ${ci(a.ci95.auroc)}   truth < 1%: ${under(b)} → ${under(a)}`);
    if (a.by_rank.length > 0) lines.push(`    truth at rank ${formatRankLine(a)}`);
  }
  return lines.join('\n');
}

/**
 * Issue 26's goals on this run: on each set not calibrated on (and pooled), ECE ≤ 0.05, log-loss
 * and Brier lower than before, AUROC not lower, the truth under 1% in ≤ 2% of cases; top-1 unchanged.
 */
export function freeTextCalibrationTargets(c: FreeTextCalibration | undefined): { name: string; target: string; measured: string; met: boolean | null }[] {
  if (!c) return [];
  return c.sets.flatMap((s) => {
    const b = s.before;
    const a = s.after;
    if (!a || !b || s.fittedOn || s.tunedOn || s.reportedOnly) return [];
    const name = s.path.startsWith('pooled') ? 'pooled blind' : basename(s.path, '.jsonl');
    return [
      { name: `${name} ECE (calibrated)`, target: '<= 0.05', measured: `${f3(a.ece)} (before ${f3(b.ece)}; p ${a.ece_consistency_p.toFixed(2)} if calibrated)`, met: a.ece <= 0.05 },
      { name: `${name} log-loss, Brier lower`, target: 'both lower', measured: `${f3(b.log_loss)}→${f3(a.log_loss)}, ${f3(b.brier)}→${f3(a.brier)}`, met: a.log_loss < b.log_loss && a.brier < b.brier },
      { name: `${name} AUROC not lower`, target: '>= before', measured: `${b.auroc === null ? '—' : f3(b.auroc)}→${a.auroc === null ? '—' : f3(a.auroc)}`, met: a.auroc === null || b.auroc === null ? null : a.auroc >= b.auroc - 1e-12 },
      { name: `${name} truth < 1%`, target: '<= 2%', measured: `${under(a)} (before ${(100 * b.truth_under_1pct).toFixed(1)}%)`, met: a.truth_under_1pct <= 0.02 },
      { name: `${name} top-1 unchanged`, target: '= before', measured: `${(100 * s.top1.after).toFixed(1)}%`, met: s.top1.after === s.top1.before },
    ];
  });
}
