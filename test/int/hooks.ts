import { startTestNeo4j, stopTestNeo4j } from '../support/neo4j.js';

// Root hooks (loaded first via .mocharc.int.json "file"): one real Neo4j for the whole run.
before(async function () {
  this.timeout(Number(process.env.NEO4J_START_TIMEOUT_MS ?? 180_000) + 30_000);
  await startTestNeo4j();
});

after(async function () {
  this.timeout(120_000);
  await stopTestNeo4j();
});
