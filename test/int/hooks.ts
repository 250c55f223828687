import { startTestNeo4j, stopTestNeo4j } from '../support/neo4j.js';

// Root hooks (loaded first via .mocharc.int.json "file"): one real Neo4j for the whole run.
// Test servers run diagnose on their event loop unless a test asks for workers: a pool per
// server would multiply start-up time and memory (test/int/sessions-replicas.test.ts runs one).
process.env.DXGRAPH_QUERY_WORKERS ??= '0';
before(async function () {
  this.timeout(Number(process.env.NEO4J_START_TIMEOUT_MS ?? 180_000) + 30_000);
  await startTestNeo4j();
});

after(async function () {
  this.timeout(120_000);
  await stopTestNeo4j();
});
