import { availableParallelism } from 'node:os';

/**
 * A build is its own process and its FAISS work is batched (HNSW / IVF adds, batched
 * searches), so it gives OpenMP every core; src/adapters/faiss/native.ts defaults to one
 * thread for the server's single-query searches. libgomp reads these once, when faiss-node
 * loads: call this before the first index is created. PASSIVE: idle OpenMP workers sleep
 * instead of spinning, so the build's JS stages between FAISS calls keep their core.
 * Values already set in the environment win.
 */
export function faissThreadsForBuild(env: NodeJS.ProcessEnv = process.env, cores: number = availableParallelism()): void {
  env.OMP_NUM_THREADS ??= String(Math.max(1, cores));
  env.OMP_WAIT_POLICY ??= 'PASSIVE';
}
