import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Neo4jLauncher, defaultHome, freePort, launcherSettings } from '../../src/neo4j-launcher/index.js';

/**
 * The bench's Neo4j: by default a dedicated server from the project's assembled jars, in
 * its own instance directory on free ports (its database is the bench's own, so the
 * build's wipe-and-rebuild never touches a developer's KG); with `uri`, that server is
 * used as is, and its KG is replaced by each size's build.
 */
export interface BenchNeo4j {
  uri: string;
  dedicated: boolean;
  startMs: number;
  /** The server's pid when it runs on this machine (dedicated): its CPU time is read from /proc. */
  pid: number | null;
  stop(): Promise<void>;
}

export async function benchNeo4j(opts: { uri: string | null; heapMax?: string; pageCache?: string }): Promise<BenchNeo4j> {
  if (opts.uri) return { uri: opts.uri, dedicated: false, startMs: 0, pid: null, stop: async () => {} };
  const instanceDir = join(defaultHome(), 'bench-instances', String(process.pid));
  const env = { ...process.env, NEO4J_PASSWORD: '', NEO4J_HEAP_MAX: opts.heapMax ?? '1g', NEO4J_PAGECACHE: opts.pageCache ?? '512m' };
  const launcher = new Neo4jLauncher(launcherSettings({ env, instanceDir, boltPort: await freePort(), httpPort: await freePort() }));
  const started = await launcher.start();
  return {
    uri: started.boltUri,
    dedicated: true,
    startMs: started.startMs,
    pid: started.pid,
    stop: async () => {
      await launcher.stop();
      rmSync(instanceDir, { recursive: true, force: true });
    },
  };
}

