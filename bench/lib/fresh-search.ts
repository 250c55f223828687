import { fork } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { IndexSpec, MeasuredRow, QueryPlan } from './faiss-bench.js';

/**
 * Query figures as the server gets them: the built index is saved, then loaded and
 * searched in a fresh process with OMP_NUM_THREADS=1 (src/adapters/faiss/native.ts's
 * serving default), while the build ran with every core. It also shows that the patched
 * efSearch / nprobe survive save + load. The files are deleted afterwards.
 */
const CHILD = fileURLToPath(new URL('./fresh-search-child.ts', import.meta.url));

export interface FreshSearchRun {
  rows: MeasuredRow[];
  peakRssMb: number;
  loadMs: number;
}

export function freshProcessMeasure(dir: string, onRun: (spec: IndexSpec, run: FreshSearchRun) => void) {
  return async (index: FaissVectorIndex, spec: IndexSpec, plan: QueryPlan): Promise<MeasuredRow[]> => {
    await mkdir(dir, { recursive: true });
    const indexPath = join(dir, `${spec.name}.faiss`);
    try {
      await index.save(indexPath);
      const run = await runChild({ indexPath, plan: { ...plan, queries: plan.queries.map((q) => Array.from(q)) } });
      onRun(spec, run);
      return run.rows;
    } finally {
      await Promise.all([rm(indexPath, { force: true }), rm(`${indexPath}.ids.json`, { force: true })]);
    }
  };
}

function runChild(task: object): Promise<FreshSearchRun> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { execArgv: ['--import', 'tsx', '--max-old-space-size=4096'], env: { ...process.env, OMP_NUM_THREADS: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let done = false;
    child.on('message', (m: { type: string; run?: FreshSearchRun; message?: string }) => {
      done = true;
      if (m.type === 'result') resolve(m.run!);
      else reject(new Error(`fresh search failed: ${m.message}`));
    });
    child.on('exit', (code, signal) => {
      if (!done) reject(new Error(`fresh search exited (code ${code}, signal ${signal}) without a result`));
    });
    child.send(task as Parameters<typeof child.send>[0]);
  });
}
