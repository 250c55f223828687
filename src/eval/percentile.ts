/** Latency statistics: nearest-rank percentiles (no interpolation, so every value was observed). */
import type { LatencyStats } from './types.js';

/** The p-th percentile (0 < p ≤ 100) by the nearest-rank method; NaN for no values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export function latencyStats(values: readonly number[]): LatencyStats {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, mean: round3(mean), p50: round3(percentile(sorted, 50)), p95: round3(percentile(sorted, 95)), p99: round3(percentile(sorted, 99)) };
}

/** Per stage over many traces' `timingsMs` (a stage missing from a trace is simply not counted). */
export function latencyByStage(timings: readonly Record<string, number>[]): Record<string, LatencyStats> {
  const byStage = new Map<string, number[]>();
  for (const t of timings) for (const [stage, ms] of Object.entries(t)) if (Number.isFinite(ms)) (byStage.get(stage) ?? byStage.set(stage, []).get(stage)!).push(ms);
  return Object.fromEntries([...byStage].map(([stage, v]) => [stage, latencyStats(v)]));
}
