/**
 * The HTML report: one self-contained file (inline CSS and SVG, no script, no network)
 * with the summary table, the accuracy-vs-questions curve, per-disease accuracy and
 * the most frequent mix-ups. All text from data is escaped.
 */
import { esc, pct } from './html-escape.js';
import { barChart, lineChart, type Series } from './svg-charts.js';
import { interactiveHtml } from './report-dialogue.js';
import { heldOutHtml } from './report-held-out.js';
import type { EvalReport } from './types.js';
import { calibrationSection } from './calibration-html.js';

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:960px;color:#222}
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #eee;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#777}
svg.chart{display:block;margin:8px 0;font-size:11px}svg .grid{stroke:#e5e5e5}svg .ct{font-size:13px;font-weight:600}`;

const table = (head: string[], rows: string[][]): string =>
  `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table>`;
const td = (v: unknown) => `<td>${esc(v)}</td>`;
const tn = (v: string) => `<td class="n">${esc(v)}</td>`;

function summary(r: EvalReport): string {
  const rows: [string, number | null][] = [
    ['Top-1, L3 (disease)', r.l3], ['Top-1, L2 (subcategory)', r.l2], ['Top-1, L1 (category)', r.l1],
    ['Top-3 (disease)', r.top3], ['Top-5 (disease)', r.top5], ['Top-1, ICD-10 3-character block', r.l2_icd], ['Top-1, ICD-10 chapter', r.l1_icd],
  ];
  return table(['metric', 'value'], [
    ...rows.map(([k, v]) => [td(k), tn(pct(v))]),
    [td('test patients'), tn(String(r.n))], [td('diagnosis not in the KG'), tn(String(r.n_unknown_truth))], [td('refused by the pipeline'), tn(String(r.n_failed))],
  ]);
}

function curves(r: EvalReport): string {
  const series: Series[] = [];
  const pts = (m: Record<string, number>) => Object.entries(m).map(([k, v]) => ({ x: Number(k), y: v }));
  if (r.interactive) series.push({ name: `interactive (${r.interactive_stats?.ranker ?? ''})`, points: pts(r.interactive) });
  for (const [rate, m] of Object.entries(r.masking ?? {})) series.push({ name: `masked ${rate}%`, points: pts(m) });
  if (series.length === 0) return '<p class="muted">The interactive and masking protocols were not run (--protocol).</p>';
  const s = r.interactive_stats;
  const stats = s
    ? table(['interactive protocol', 'value'], [
        [td('patients'), tn(String(s.n))], [td('follow-up ranker'), td(s.ranker)], [td(`mean questions to a confident answer (p ≥ ${s.confidence})`), tn(s.mean_questions_to_confident.toFixed(2))],
        [td('share reaching that confidence'), tn(pct(s.reached_confident_share))], [td('top-1 at the confident answer'), tn(pct(s.accuracy_at_confident))],
      ])
    : '';
  return lineChart(series, { title: 'Top-1 accuracy vs follow-up questions asked', xLabel: 'questions asked' }) + stats;
}

function perDisease(r: EvalReport): string {
  if (r.per_disease.length === 0) return '<p class="muted">No full-protocol results.</p>';
  const bars = [...r.per_disease].sort((a, b) => b.l3 - a.l3 || b.n - a.n).map((d) => ({ label: d.disease, value: d.l3, note: `n=${d.n}` }));
  return barChart(bars, { title: 'Top-1 accuracy (L3) per disease' });
}

function confusions(r: EvalReport): string {
  if (r.confusions.length === 0) return '<p class="muted">No mix-ups.</p>';
  return table(['true disease', 'answered instead', 'times'], r.confusions.map((c) => [td(c.truth), td(c.predicted), tn(String(c.count))]));
}

function latency(r: EvalReport): string {
  const rows = Object.entries(r.latency_ms).map(([stage, l]) => [td(stage), tn(String(l.n)), tn(l.p50.toFixed(2)), tn(l.p95.toFixed(2)), tn(l.p99.toFixed(2)), tn(l.mean.toFixed(2))]);
  return rows.length ? table(['stage', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms'], rows) : '<p class="muted">No timings.</p>';
}

function gate(r: EvalReport): string {
  const g = r.gate;
  if (!g) return '<p class="muted">The gate was off (no query carried a gate decision).</p>';
  return table(['gate', 'value'], [
    [td('queries'), tn(String(g.n))], [td('answered directly'), tn(pct(g.direct_share))], [td('top-1 of direct answers'), tn(pct(g.direct_accuracy))],
    [td('top-1 of retrieved answers'), tn(pct(g.retrieve_accuracy))], [td('AUROC of I_norm vs correctness'), tn(g.auroc === null ? '—' : g.auroc.toFixed(3))],
  ]);
}

export function renderHtmlReport(r: EvalReport): string {
  const params = Object.entries(r.params).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' · ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>dxgraph evaluation — ${esc(r.build.buildId ?? '')}</title><style>${CSS}</style></head><body>
<h1>dxgraph evaluation</h1>
<p class="muted">build ${esc(r.build.buildId ?? '?')} (${esc(r.build.source)}, embedder ${esc(r.build.embedder)}) · ${esc(r.n)} test patients · seed ${esc(r.seed)} · ${esc(r.created_at)}</p>
<p class="muted">${esc(params)}</p>
<h2>Summary</h2>${summary(r)}
<h2>Held-out part</h2>${heldOutHtml(r)}
<h2>Accuracy vs questions</h2>${curves(r)}
<h2>Interactive protocol per disease</h2>${interactiveHtml(r)}
<h2>Calibration of the probabilities</h2>${calibrationSection(r)}
<h2>Per-disease accuracy</h2>${perDisease(r)}
<h2>Most frequent mix-ups</h2>${confusions(r)}
<h2>Latency per stage</h2>${latency(r)}
<h2>Gate</h2>${gate(r)}
</body></html>
`;
}
