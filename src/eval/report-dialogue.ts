/** The interactive protocol per disease and its mix-ups, for the HTML report (all text escaped). */
import { esc, pct } from './html-escape.js';
import type { EvalReport } from './types.js';

export function interactiveHtml(r: EvalReport): string {
  const m = r.interactive_metrics;
  if (!m) return '<p class="muted">The interactive protocol was not run (--protocol).</p>';
  const ks = Object.keys(m.per_disease[0]?.top1 ?? {});
  const head = `<tr><th>disease</th><th>n</th>${ks.map((k) => `<th>@${esc(k)}</th>`).join('')}</tr>`;
  const rows = m.per_disease.map((d) => `<tr><td>${esc(d.disease)}</td><td class="n">${esc(d.n)}</td>${ks.map((k) => `<td class="n">${esc(pct(d.top1[k] ?? 0))}</td>`).join('')}</tr>`);
  const mix = m.confusions.length === 0
    ? '<p class="muted">No mix-ups.</p>'
    : `<table><thead><tr><th>true disease</th><th>top-1 after ${esc(m.at)} questions</th><th>times</th></tr></thead><tbody>${m.confusions.map((c) => `<tr><td>${esc(c.truth)}</td><td>${esc(c.predicted)}</td><td class="n">${esc(c.count)}</td></tr>`).join('')}</tbody></table>`;
  return `<table class="interactive-per-disease"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>${mix}`;
}
