/** Small helpers for the gate figures (bench/gate-pipeline.ts, test/int/gate.test.ts). */
import type { NormalizedRecord } from '../src/domain/record.js';

/** Mann-Whitney AUROC: P(score of a positive > score of a negative), ties count half; NaN without both. */
export function auroc(pos: readonly number[], neg: readonly number[]): number {
  if (pos.length === 0 || neg.length === 0) return NaN;
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

/** Nearest-rank quantiles. */
export function quantiles(xs: readonly number[]): { p10: number; p25: number; p50: number; p75: number; p90: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => (s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!);
  return { p10: q(0.1), p25: q(0.25), p50: q(0.5), p75: q(0.75), p90: q(0.9) };
}

/** DDXPlus's interactive starting point: age, sex and the initial complaint only (the record text's own lines). */
export function initialEvidenceText(r: NormalizedRecord): string {
  const initial = r.findings.find((f) => f.code === r.initialFindingCode);
  const lines = r.text.split('\n');
  const keep = lines.filter((l) => /^(age|sex):/i.test(l));
  const complaint = initial ? (lines.find((l) => initial.question && l.startsWith(initial.question)) ?? initial.text) : '';
  return [...keep, complaint].filter(Boolean).join('\n');
}
