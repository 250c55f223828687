/**
 * Per-stage CPU profile of diagnose() in process (no HTTP), for finding where a query's time
 * goes: `npx tsx bench/profile-diagnose.ts --data-dir DIR --queries DIR [--n 200]` with
 * NEO4J_URI pointing at the Neo4j holding that build. Prints wall p50/p99, CPU per query,
 * the per-stage p50 from the trace, and the response JSON size.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { textInput } from '../src/query/query-service.js';
import { startServer } from '../src/server.js';
import { queryPatients } from './lib/record-texts.js';
import { summarize } from './lib/stats.js';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, queries: { type: 'string' }, n: { type: 'string', default: '200' } } });
const config = loadConfig({ ...process.env, DXGRAPH_DATA_DIR: values['data-dir']!, DXGRAPH_LLM: 'none', DXGRAPH_RATE_LIMIT_MAX: '0' });
const queries = await queryPatients({ dir: values.queries!, count: Number(values.n), seed: 424242 });
const server = await startServer({ config, logger: createLogger({ level: 'error' }), host: '127.0.0.1', port: 0 });
try {
  for (const q of queries.slice(0, 20)) await server.query.diagnose(textInput(q.text, { reasoner: 'evidence' }));
  const wall: number[] = [];
  const stages: Record<string, number[]> = {};
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const q of queries) {
    const t = performance.now();
    const r = await server.query.diagnose(textInput(q.text, { reasoner: 'evidence' }));
    wall.push(performance.now() - t);
    bytes += JSON.stringify(r).length;
    for (const [k, v] of Object.entries(r.trace.timingsMs)) (stages[k] ??= []).push(v);
  }
  const cpu = process.cpuUsage(cpu0);
  const elapsed = performance.now() - t0;
  console.log('wall', summarize(wall), 'cpu/query ms', ((cpu.user + cpu.system) / 1000 / queries.length).toFixed(2), 'elapsed/query', (elapsed / queries.length).toFixed(2));
  for (const [k, v] of Object.entries(stages)) console.log(k.padEnd(14), summarize(v));
  console.log('response bytes/query', Math.round(bytes / queries.length));
} finally {
  await server.close({ drainMs: 100 });
}
