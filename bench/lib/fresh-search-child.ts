/**
 * Entry of bench/lib/fresh-search.ts's child: loads one saved index (OMP_NUM_THREADS=1, set
 * by the parent) and runs the query plan on it, one query at a time. Its peak RSS is the
 * serving cost of the index alone.
 */
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { measurePlan, type QueryPlan } from './faiss-bench.js';
import { mb } from './stats.js';

type Task = { indexPath: string; plan: Omit<QueryPlan, 'queries'> & { queries: number[][] } };

const send = (m: unknown) => new Promise<void>((resolve) => process.send!(m, () => resolve()));
process.once('message', (task: Task) => {
  void (async () => {
    try {
      const t0 = performance.now();
      const index = await FaissVectorIndex.load(task.indexPath);
      const loadMs = Math.round(performance.now() - t0);
      const rows = measurePlan(index, { ...task.plan, queries: task.plan.queries.map((q) => Float32Array.from(q)) });
      await send({ type: 'result', run: { rows, loadMs, peakRssMb: mb(process.resourceUsage().maxRSS * 1024) } });
    } catch (e) {
      await send({ type: 'error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      process.exitCode = 1;
    }
    process.disconnect();
  })();
});
