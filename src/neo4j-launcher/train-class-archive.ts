/**
 * Makes the class archive (class-archive.ts): a start of the assembled Neo4j on a scratch
 * instance with `-XX:ArchiveClassesAtExit`, a few statements of the kinds dxgraph runs (so the
 * Cypher planner's and runtime's classes are archived too), then a clean stop, at which the JVM
 * writes the archive. Run by `npm run setup` / `dxgraph neo4j install`; a failure leaves Neo4j
 * starting as before, and is reported, not thrown.
 */
import { existsSync, rmSync } from 'node:fs';
import { err, ok, type Result } from '../result.js';
import { archiveDir, classArchivePath, discardTraining, keepArchive, trainingPlaces } from './class-archive.js';
import { findJava } from './java.js';
import { Neo4jLauncher } from './launcher.js';
import { makeLayout } from './layout.js';
import { freePort } from './ports.js';
import type { LauncherSettings } from './settings.js';

/** Statements like the build's and the queries' (constraint, batched MERGE, reads), then cleaned away. */
const WARM_UP = [
  'CREATE CONSTRAINT warm_up IF NOT EXISTS FOR (n:WarmUp) REQUIRE n.id IS UNIQUE',
  'UNWIND range(1, 500) AS i MERGE (n:WarmUp {id: i}) SET n.name = toString(i) WITH n MATCH (m:WarmUp {id: n.id % 50}) MERGE (n)-[:NEAR {w: 0.5}]->(m)',
  'MATCH (n:WarmUp)-[r:NEAR]->(m) WHERE n.id > $min RETURN m.id AS id, count(*) AS c, collect(n.name)[..3] AS names ORDER BY c DESC LIMIT 10',
  'MATCH (n:WarmUp) DETACH DELETE n',
  'DROP CONSTRAINT warm_up IF EXISTS',
];

export type ArchiveOutcome = { made: true; path: string; ms: number } | { made: false; path: string; why: 'present' };

export async function makeClassArchive(settings: LauncherSettings, opts: { force?: boolean } = {}): Promise<Result<ArchiveOutcome, string>> {
  const java = findJava();
  const path = classArchivePath(settings.layout, java);
  if (opts.force) rmSync(archiveDir(settings.layout), { recursive: true, force: true });
  if (existsSync(path)) return ok({ made: false, path, why: 'present' });
  const places = trainingPlaces(settings.layout, java);
  const scratch = new Neo4jLauncher({
    ...settings,
    layout: makeLayout({ home: settings.layout.home, instanceDir: places.instanceDir }),
    boltPort: await freePort(),
    httpPort: await freePort(),
    auth: null,
    jvmAdditional: [...settings.jvmAdditional, `-XX:ArchiveClassesAtExit=${places.partial}`],
  });
  const t0 = Date.now();
  try {
    const started = await scratch.start();
    const [{ default: neo4j }, { boltAuth }] = await Promise.all([import('neo4j-driver-lite'), import('../adapters/neo4j/bolt-auth.js')]);
    const driver = neo4j.driver(started.boltUri, boltAuth(null), { logging: { level: 'error', logger: () => {} } });
    try {
      for (const q of WARM_UP) await driver.executeQuery(q, { min: 10 });
    } finally {
      await driver.close();
    }
  } catch (e) {
    await scratch.stop();
    discardTraining(places);
    return err(`the training start failed: ${String((e as Error).message ?? e).split('\n')[0]}`);
  }
  const stopped = await scratch.stop();
  // Killed after the stop timeout, the JVM wrote nothing (or half a file): not kept.
  if (stopped.how !== 'terminated') {
    discardTraining(places);
    return err('the training server did not stop cleanly, so no archive was written');
  }
  if (!keepArchive(places)) return err('the JVM wrote no archive (see its console.log)');
  return ok({ made: true, path, ms: Date.now() - t0 });
}
