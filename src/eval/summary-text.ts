/** The plain-text summary `dxgraph eval` prints on stdout. */
import { pct } from './html-escape.js';
import { heldOutLines } from './report-held-out.js';
import type { EvalReport } from './types.js';
import { calibrationRows, calibrationState, formatCalibrationLine, formatRankLine } from './calibration-html.js';

export function formatSummary(r: EvalReport): string {
  const lines = [`dxgraph eval: ${r.n} test patients, build ${r.build.buildId ?? '?'} (${r.build.source})`, ...heldOutLines(r)];
  if (r.l3 !== null) {
    lines.push(`full protocol: L3 ${pct(r.l3)}  L2 ${pct(r.l2)}  L1 ${pct(r.l1)}  top-3 ${pct(r.top3)}  top-5 ${pct(r.top5)}  ICD-10 block ${pct(r.l2_icd)}  chapter ${pct(r.l1_icd)}`);
    if (r.n_unknown_truth + r.n_failed > 0) lines.push(`  (${r.n_unknown_truth} diagnoses not in the KG, ${r.n_failed} refused by the pipeline: counted as misses)`);
  }
  if (r.interactive && r.interactive_stats) {
    const s = r.interactive_stats;
    lines.push(`interactive (${s.ranker}): ${Object.entries(r.interactive).map(([k, v]) => `@${k} ${pct(v)}`).join('  ')}`);
    lines.push(`  mean questions to p>=${s.confidence}: ${s.mean_questions_to_confident.toFixed(2)} (reached by ${pct(s.reached_confident_share)}, top-1 there ${pct(s.accuracy_at_confident)})`);
  }
  for (const [rate, m] of Object.entries(r.masking ?? {})) lines.push(`masking ${rate}%: ${Object.entries(m).map(([k, v]) => `@${k} ${pct(v)}`).join('  ')}`);
  if (calibrationRows(r).length > 0) lines.push(`calibration: ${calibrationState(r)}`);
  for (const [name, m] of calibrationRows(r)) {
    lines.push(`calibration, ${formatCalibrationLine(name, m)}`);
    if (m.by_rank.length > 0) lines.push(`  truth at rank ${formatRankLine(m)}`);
  }
  const total = r.latency_ms.total;
  if (total) lines.push(`latency (diagnose total): p50 ${total.p50.toFixed(1)} ms  p95 ${total.p95.toFixed(1)} ms  p99 ${total.p99.toFixed(1)} ms`);
  if (r.gate) lines.push(`gate: direct ${pct(r.gate.direct_share)}, AUROC ${r.gate.auroc?.toFixed(3) ?? '—'}`);
  return `${lines.join('\n')}\n`;
}
