import type { FaissPhaseResult } from './phase-faiss.js';
import type { FaissBenchResult } from './faiss-bench.js';
import type { LoadResult } from '../load.js';
import type { BuildPhaseResult } from './phase-build.js';
import type { ServePhaseResult } from './phase-serve.js';

/** What `npm run bench` prints as JSON (--json). */
export interface SizeReport {
  size: number;
  build: BuildPhaseResult;
  /** One client, closed loop: per-request latency without queueing. */
  latency: LoadResult | null;
  /** `concurrency` clients, closed loop: throughput at saturation. */
  load: LoadResult | null;
  serve: ServePhaseResult | null;
  /** Why a phase of this size failed (the figures before it are kept). */
  error: string | null;
}

export interface BenchReport {
  startedAt: string;
  machine: { cpus: number; model: string; memGb: number; loadAvgStart: number[]; loadAvgEnd: number[]; node: string; calibration: { jsMflops: number; cpuShare: number } };
  options: Record<string, unknown>;
  neo4j: { dedicated: boolean; startMs: number };
  sizes: SizeReport[];
  faissOnly: { size: number; result: FaissPhaseResult }[];
  targets: { name: string; target: string; measured: string; met: boolean | null }[];
  totalSeconds: number;
}
