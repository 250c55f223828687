import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where things live. `home` holds the assembled jars (shared, costly to make);
 * `instanceDir` holds one server's conf/data/logs/run, so tests can run their own
 * server from the same jars without touching the developer's database.
 */
export interface Neo4jLayout {
  home: string;
  libDir: string;
  pomFile: string;
  assembledMarker: string;
  instanceDir: string;
  confDir: string;
  confFile: string;
  dataDir: string;
  logsDir: string;
  runDir: string;
  pluginsDir: string;
  pidFile: string;
  consoleLog: string;
  neo4jLog: string;
}

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.NEO4J_HOME ? resolve(env.NEO4J_HOME) : join(PROJECT_ROOT, '.neo4j');
}

export function makeLayout(opts: { home: string; instanceDir?: string }): Neo4jLayout {
  const home = resolve(opts.home);
  const inst = resolve(opts.instanceDir ?? home);
  return {
    home,
    libDir: join(home, 'lib'),
    pomFile: join(home, 'pom.xml'),
    assembledMarker: join(home, 'lib', '.dxgraph-assembled.json'),
    instanceDir: inst,
    confDir: join(inst, 'conf'),
    confFile: join(inst, 'conf', 'neo4j.conf'),
    dataDir: join(inst, 'data'),
    logsDir: join(inst, 'logs'),
    runDir: join(inst, 'run'),
    pluginsDir: join(home, 'plugins'),
    pidFile: join(inst, 'run', 'dxgraph-neo4j.pid'),
    consoleLog: join(inst, 'logs', 'console.log'),
    neo4jLog: join(inst, 'logs', 'neo4j.log'),
  };
}
