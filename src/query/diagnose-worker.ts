/**
 * One diagnose worker thread (diagnose-pool.ts): opens the same query service `serve` runs
 * (its own Neo4j driver, KG snapshot and FAISS indexes) and runs `diagnose` for the pool, so
 * the CPU-heavy stages never hold the server's event loop. Never logs request content.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { GraphStore } from '../adapters/neo4j/graph-store.js';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { openServedQuery } from './served-query.js';
import { diagnoseJson } from './diagnose-json.js';
import { toWire, type FromWorker, type ToWorker } from './worker-wire.js';

const port = parentPort!;
const { config, nice } = workerData as { config: Config; nice: number };
// Linux sets a thread's own niceness with setpriority(0); elsewhere it would lower the whole
// process (the server's event loop too), so the background lane is a plain lane there.
if (nice > 0 && process.platform === 'linux') setPriority(0, nice);
const graph = new GraphStore(config.neo4j);
await graph.connect({ maxRetryMs: 1000 });
const query = await openServedQuery(config, createLogger({ level: config.logLevel, name: 'dxgraph-worker' }), graph);
const running = new Map<number, AbortController>();
const send = (m: FromWorker) => port.postMessage(m);

port.on('message', (m: ToWorker) => {
  if (m.type === 'cancel') return void running.get(m.id)?.abort();
  const gone = new AbortController();
  running.set(m.id, gone);
  query
    .diagnose(m.input, { signal: gone.signal })
    .then((result) => send(m.render ? { type: 'json', id: m.id, json: diagnoseJson(result, m.render) } : { type: 'done', id: m.id, result }), (e: unknown) => send({ type: 'fail', id: m.id, error: toWire(e) }))
    .finally(() => running.delete(m.id));
});
// The pool closes by terminate(); the driver goes with the thread.
send({ type: 'ready', buildId: query.snapshot.buildId });
