/**
 * Reliability diagram (DeGroot & Fienberg 1983; as drawn by Guo et al. 2017 fig. 1): top-1
 * accuracy per bin of the top-1 probability against the diagonal of perfect calibration,
 * one polyline per series, point size by the bin's share of cases. Static inline SVG like
 * svg-charts.ts; every label escaped.
 */
import { esc } from './html-escape.js';
import type { ReliabilityBin } from './calibration-metrics.js';

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
const f = (v: number): string => (Math.round(v * 10) / 10).toString();

export function reliabilityDiagram(series: readonly { name: string; bins: readonly ReliabilityBin[] }[], opts: { title: string; size?: number }): string {
  const s = opts.size ?? 300;
  const m = { l: 44, r: 190, t: 28, b: 40 };
  const w = s + m.l + m.r;
  const h = s + m.t + m.b;
  const X = (v: number) => m.l + v * s;
  const Y = (v: number) => m.t + (1 - v) * s;
  const parts = [`<text x="${m.l + s / 2}" y="18" text-anchor="middle" class="ct">${esc(opts.title)}</text>`];
  for (const t of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
    parts.push(`<line x1="${X(0)}" x2="${X(1)}" y1="${f(Y(t))}" y2="${f(Y(t))}" class="grid"/><text x="${m.l - 6}" y="${f(Y(t) + 4)}" text-anchor="end">${t * 100}%</text>`);
    parts.push(`<text x="${f(X(t))}" y="${m.t + s + 16}" text-anchor="middle">${t * 100}%</text>`);
  }
  parts.push(`<line x1="${X(0)}" y1="${Y(0)}" x2="${X(1)}" y2="${Y(1)}" stroke="#999" stroke-dasharray="4 3"/>`);
  parts.push(`<text x="${m.l + s / 2}" y="${h - 6}" text-anchor="middle">top-1 probability shown</text>`);
  parts.push(`<text transform="translate(12 ${m.t + s / 2}) rotate(-90)" text-anchor="middle">top-1 accuracy</text>`);
  series.forEach((ser, i) => {
    const c = COLORS[i % COLORS.length]!;
    const total = ser.bins.reduce((a, b) => a + b.n, 0) || 1;
    const pts = ser.bins.filter((b) => b.n > 0 && b.confidence !== null && b.accuracy !== null);
    parts.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${pts.map((b) => `${f(X(b.confidence!))},${f(Y(b.accuracy!))}`).join(' ')}"/>`);
    for (const b of pts) {
      const r = 2.5 + 6 * Math.sqrt(b.n / total);
      parts.push(`<circle cx="${f(X(b.confidence!))}" cy="${f(Y(b.accuracy!))}" r="${f(r)}" fill="${c}" fill-opacity="0.7"><title>${esc(ser.name)}: ${esc(b.n)} cases shown ${(100 * b.lo).toFixed(0)}-${(100 * b.hi).toFixed(0)}% (mean ${(100 * b.confidence!).toFixed(1)}%), right ${(100 * b.accuracy!).toFixed(1)}%</title></circle>`);
    }
    const ly = m.t + 8 + i * 18;
    parts.push(`<rect x="${m.l + s + 14}" y="${ly - 8}" width="12" height="12" fill="${c}"/><text x="${m.l + s + 32}" y="${ly + 2}">${esc(ser.name)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="${esc(opts.title)}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}
