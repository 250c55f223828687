import { closeTestStores, startTestNeo4j, stopRunNeo4j, testNeo4jPid, testRunId } from '../support/neo4j.js';
import { holdExternalNeo4j, releaseExternalNeo4j } from '../support/external-neo4j-lock.js';
import { fileDone, fileStarted } from '../support/file-times.js';

// Loaded by .mocharc.int.json "require". Files run in parallel worker processes (--jobs); each
// worker starts its own real Neo4j the first time a file asks (root hooks run once per file in a
// worker), so files that wipe the database never share one. The main process stops them all.
// Test servers run diagnose on their event loop unless a test asks for workers: a pool per
// server would multiply start-up time and memory (test/int/sessions-replicas.test.ts runs one).
process.env.DXGRAPH_QUERY_WORKERS ??= '0';

/** Main process, before any worker is forked: the run id workers name their Neo4j after. */
export function mochaGlobalSetup(): void {
  process.env.DXGRAPH_TEST_RUN = testRunId();
  // A server the developer gave (NEO4J_URI) is one database for every worker: files take turns.
  if (process.env.NEO4J_URI) process.env.DXGRAPH_TEST_EXTERNAL_NEO4J = '1';
}

/** Main process, after the workers are gone: stop every Neo4j this run started. */
export async function mochaGlobalTeardown(): Promise<void> {
  await stopRunNeo4j();
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(Number(process.env.NEO4J_START_TIMEOUT_MS ?? 180_000) + 30_000);
    if (process.env.DXGRAPH_TEST_EXTERNAL_NEO4J) await holdExternalNeo4j();
    await startTestNeo4j();
    // A worker's Neo4j start is printed on its own ([int] line), not charged to a file; its CPU
    // from here on is (the file's builds and queries are what it runs).
    fileStarted({ neo4jPid: testNeo4jPid() });
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(120_000);
    try {
      await closeTestStores();
    } finally {
      if (process.env.DXGRAPH_TEST_EXTERNAL_NEO4J) releaseExternalNeo4j();
      fileDone(this.test!.parent!);
    }
  },
};
