/** The HTML report's calibration section: metrics with 95% intervals per set, and the reliability diagram. */
import type { CalibrationMetrics } from './calibration-metrics.js';
import { esc, pct } from './html-escape.js';
import { reliabilityDiagram } from './reliability-svg.js';
import type { EvalReport } from './types.js';

const ci = (v: number, i: [number, number] | null, d = 3) => `${v.toFixed(d)} [${i ? `${i[0].toFixed(d)}, ${i[1].toFixed(d)}` : '—'}]`;

/** One row per set: n, accuracy, mean top-1, ECE, Brier, log-loss, AUROC, truth < 1% (with bootstrap 95% intervals). */
export function calibrationRows(r: EvalReport): [string, CalibrationMetrics][] {
  const c = r.calibration;
  if (!c) return [];
  return [...(c.full ? [['full protocol', c.full] as [string, CalibrationMetrics]] : []), ...Object.entries(c.interactive ?? {}).map(([k, m]) => [`interactive @${k}`, m] as [string, CalibrationMetrics])];
}

export function formatCalibrationLine(name: string, m: CalibrationMetrics): string {
  return `${name}: n ${m.n}  top-1 ${(100 * m.accuracy).toFixed(1)}% vs mean p ${(100 * m.mean_top1).toFixed(1)}%  ECE ${ci(m.ece, m.ci95.ece)} (${m.ece_if_calibrated.toFixed(3)} if calibrated, p ${m.ece_consistency_p.toFixed(2)})  Brier ${ci(m.brier, m.ci95.brier)}  log-loss ${ci(m.log_loss, m.ci95.log_loss)}  AUROC ${m.auroc === null ? '—' : ci(m.auroc, m.ci95.auroc)}  truth<1% ${(100 * m.truth_under_1pct).toFixed(1)}%`;
}

/** "rank 1 80.2% (given 78.8%) · 2 …": where the truth sat against the probability given there (rank-reliability.ts). */
export function formatRankLine(m: CalibrationMetrics): string {
  // A group of one rank needs no per-disease figure: it is the group's.
  return m.by_rank.map((g) => `${g.ranks} ${pct(g.truth_share)} (given ${pct(g.expected_share)}${/^\d+$/.test(g.ranks) ? '' : `, ${pct(g.mean_p)} each`})`).join(' · ');
}

function rankTable(rows: [string, CalibrationMetrics][]): string {
  const withRanks = rows.filter(([, m]) => m.by_rank.length > 0);
  if (withRanks.length === 0) return '';
  const groups = withRanks[0]![1].by_rank.map((g) => g.ranks);
  const head = ['set', ...groups.map((g) => `rank ${g}`)].map((h) => `<th>${esc(h)}</th>`).join('');
  const body = withRanks.map(([name, m]) => `<tr><td>${esc(name)}</td>${m.by_rank.map((g) => `<td class="n">${esc(`${pct(g.truth_share)} / ${pct(g.expected_share)}`)}</td>`).join('')}</tr>`).join('');
  return `<h3>Where the true diagnosis ranked</h3><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table><p class="muted">Share of cases whose truth sat at these ranks / the probability the differential gave them (equal when calibrated). A truth ranked where the probability per disease is under 1% is shown under 1% by any calibrated differential: “truth &lt; 1%” then measures recall.</p>`;
}

/** What the eval's scores are: calibrated with the calibration of their input kind (`eval --input`), raw beside another kind's, or raw. */
export function calibrationState(r: EvalReport): string {
  const c = r.calibration;
  const kind = c?.input_kind ?? 'coded';
  const words = kind === 'text' ? 'free text (the records rendered as text)' : 'coded input';
  if (c?.calibrated) return `Scores calibrated with the build’s stored calibration of ${words} (fitted on held-out cases).`;
  if (c?.calibrated_kinds?.length) return kind === 'text'
    ? 'The build’s calibration covers coded input only: these text cases show the raw posterior.'
    : 'The build’s calibration covers free text only: these coded cases show the raw posterior (calibrate coded input with dxgraph calibrate --held-out).';
  return 'The build has no calibration: scores are the raw posterior.';
}

export function calibrationSection(r: EvalReport): string {
  const rows = calibrationRows(r);
  if (rows.length === 0) return '<p class="muted">No probabilities to assess.</p>';
  const cell = (v: string) => `<td class="n">${esc(v)}</td>`;
  const body = rows
    .map(([name, m]) => `<tr><td>${esc(name)}</td>${cell(String(m.n))}${cell(`${(100 * m.accuracy).toFixed(1)}%`)}${cell(`${(100 * m.mean_top1).toFixed(1)}%`)}${cell(ci(m.ece, m.ci95.ece))}${cell(`${m.ece_if_calibrated.toFixed(3)} (p ${m.ece_consistency_p.toFixed(2)})`)}${cell(ci(m.brier, m.ci95.brier))}${cell(ci(m.log_loss, m.ci95.log_loss))}${cell(m.auroc === null ? '—' : ci(m.auroc, m.ci95.auroc))}${cell(`${(100 * m.truth_under_1pct).toFixed(1)}%`)}</tr>`)
    .join('');
  const head = ['set', 'n', 'top-1 right', 'mean top-1 p', 'ECE (10 bins) [95% CI]', 'ECE if calibrated (p)', 'Brier', 'log-loss', 'AUROC top-1 p', 'truth < 1%'].map((h) => `<th>${esc(h)}</th>`).join('');
  const note = `<p class="muted">${calibrationState(r)} Intervals: percentile bootstrap, 1000 resamples. “ECE if calibrated”: the ECE a perfectly calibrated system would still show on this many cases (sampling noise); p: how often it shows at least the measured ECE (consistency resampling, Bröcker &amp; Smith 2007; under 0.05: more than noise).</p>`;
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${note}${reliabilityDiagram(rows.map(([name, m]) => ({ name, bins: m.reliability })), { title: 'Reliability: top-1 probability vs accuracy' })}${rankTable(rows)}`;
}
