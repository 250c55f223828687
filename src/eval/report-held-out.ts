/**
 * The held-out part and the test source in the text summary and the HTML report (issue 25):
 * the split's unit and counts per side, patients on both sides (0, or there is no report),
 * and the test source's skipped rows by reason. Counts only, never a patient key.
 */
import { esc } from './html-escape.js';
import type { EvalReport } from './types.js';

const by = (r: Record<string, number>): string => Object.entries(r).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';

export function heldOutLines(r: EvalReport): string[] {
  const lines: string[] = [];
  const h = r.held_out;
  if (h) {
    const unit = h.unit === 'record' ? 'record (the source names no patients)' : h.unit;
    lines.push(`held-out part (split by ${unit}, test fraction ${h.test_fraction}, seed ${h.seed}, from the ${h.from === 'build' ? 'build' : 'flags'}): ` +
      `${h.test.records} records of ${h.test.patients} patients held out, ${h.train.records} records of ${h.train.patients} patients in training; ` +
      `${h.patients_on_both_sides} patients on both sides, ${h.content_duplicates} held-out records equal to a training record in content`);
  }
  const s = r.test_source;
  if (s) lines.push(`test source: ${s.rows_read} rows read, ${s.records} records, ${s.skipped} rows skipped (${by(s.skipped_by_reason)})${s.notes_read > 0 ? `, notes of ${s.notes_read} test records read` : ''}`);
  return lines;
}

export function heldOutHtml(r: EvalReport): string {
  const h = r.held_out;
  const s = r.test_source;
  const row = (k: string, v: unknown) => `<tr><td>${esc(k)}</td><td class="n">${esc(v)}</td></tr>`;
  const rows: string[] = [];
  if (h) {
    rows.push(row('split unit', h.unit), row('test fraction · seed', `${h.test_fraction} · ${h.seed}${h.stratify ? ' (stratified)' : ''}`), row('split from', h.from));
    rows.push(row('held out: records / patients', `${h.test.records} / ${h.test.patients}`), row('training: records / patients', `${h.train.records} / ${h.train.patients}`));
    if (h.build_train) rows.push(row('training as the build recorded it', `${h.build_train.records} / ${h.build_train.patients}`));
    rows.push(row('patients on both sides', h.patients_on_both_sides), row('held-out records equal in content to a training record', h.content_duplicates));
  }
  if (s) {
    rows.push(row('test source rows read', s.rows_read), row('records', s.records));
    for (const [k, n] of Object.entries(s.skipped_by_reason)) rows.push(row(`rows skipped: ${k}`, n));
    if (s.notes_read > 0) rows.push(row('test records whose notes were read', s.notes_read));
  }
  if (rows.length === 0) return '<p class="muted">The test source was evaluated whole (no split).</p>';
  return `${h ? '' : '<p class="muted">The test source was evaluated whole (no split).</p>'}<table><tbody>${rows.join('')}</tbody></table>`;
}
