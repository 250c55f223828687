/**
 * Inline SVG charts for the HTML report: static markup (no script, no network), so a
 * browser, a mail client or a printed page shows them. Every label is escaped.
 */
import { esc } from './html-escape.js';

export interface Series {
  name: string;
  points: { x: number; y: number }[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
const fmt = (v: number): string => (Math.round(v * 10) / 10).toString();

/** Accuracy (0..1) against a numeric x (questions asked), one polyline per series, with a legend. */
export function lineChart(series: readonly Series[], opts: { title: string; xLabel: string; width?: number; height?: number }): string {
  const w = opts.width ?? 720;
  const h = opts.height ?? 320;
  const m = { l: 48, r: 200, t: 28, b: 40 };
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const xMax = Math.max(1, ...xs);
  const X = (x: number) => m.l + (x / xMax) * (w - m.l - m.r);
  const Y = (y: number) => h - m.b - Math.max(0, Math.min(1, y)) * (h - m.t - m.b);
  const parts: string[] = [`<text x="${w / 2 - m.r / 2}" y="18" text-anchor="middle" class="ct">${esc(opts.title)}</text>`];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${m.l}" x2="${w - m.r}" y1="${fmt(Y(t))}" y2="${fmt(Y(t))}" class="grid"/>`, `<text x="${m.l - 6}" y="${fmt(Y(t) + 4)}" text-anchor="end">${t * 100}%</text>`);
  }
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) parts.push(`<text x="${fmt(X(x))}" y="${h - m.b + 16}" text-anchor="middle">${esc(x)}</text>`);
  parts.push(`<text x="${(m.l + w - m.r) / 2}" y="${h - 6}" text-anchor="middle">${esc(opts.xLabel)}</text>`);
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length]!;
    const pts = [...s.points].sort((a, b) => a.x - b.x);
    parts.push(`<polyline class="series" fill="none" stroke="${c}" stroke-width="2" points="${pts.map((p) => `${fmt(X(p.x))},${fmt(Y(p.y))}`).join(' ')}"/>`);
    for (const p of pts) parts.push(`<circle cx="${fmt(X(p.x))}" cy="${fmt(Y(p.y))}" r="3.5" fill="${c}"><title>${esc(s.name)}: ${esc(p.x)} → ${(100 * p.y).toFixed(1)}%</title></circle>`);
    const ly = m.t + 8 + i * 18;
    parts.push(`<rect x="${w - m.r + 12}" y="${ly - 8}" width="12" height="12" fill="${c}"/><text x="${w - m.r + 30}" y="${ly + 2}">${esc(s.name)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="${esc(opts.title)}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}

export interface Bar {
  label: string;
  value: number;
  /** Shown after the bar, e.g. "n=12". */
  note: string;
}

/** Horizontal bars of a 0..1 value, one row per item (per-disease accuracy). */
export function barChart(bars: readonly Bar[], opts: { title: string; width?: number }): string {
  const w = opts.width ?? 720;
  const row = 18;
  const m = { l: 230, r: 110, t: 30, b: 10 };
  const h = m.t + m.b + Math.max(1, bars.length) * row;
  const W = (v: number) => Math.max(0, Math.min(1, v)) * (w - m.l - m.r);
  const parts = [`<text x="${w / 2}" y="18" text-anchor="middle" class="ct">${esc(opts.title)}</text>`];
  bars.forEach((b, i) => {
    const y = m.t + i * row;
    const label = b.label.length > 34 ? `${b.label.slice(0, 33)}…` : b.label;
    parts.push(
      `<text x="${m.l - 6}" y="${y + 13}" text-anchor="end">${esc(label)}</text>`,
      `<rect class="bar" x="${m.l}" y="${y + 3}" width="${fmt(Math.max(1, W(b.value)))}" height="${row - 6}" fill="${COLORS[0]}"><title>${esc(b.label)}: ${(100 * b.value).toFixed(1)}% (${esc(b.note)})</title></rect>`,
      `<text x="${fmt(m.l + W(b.value) + 6)}" y="${y + 13}">${(100 * b.value).toFixed(0)}% · ${esc(b.note)}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="${esc(opts.title)}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}
