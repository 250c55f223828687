import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Neo4jLauncher, defaultHome, freePort, launcherSettings, makeLayout } from '../../src/neo4j-launcher/index.js';
import { runningPid } from '../../src/neo4j-launcher/process.js';
import { pidAlive } from '../../src/util/pid-alive.js';
import { killTestNeo4j, restartTestNeo4j, testNeo4jPid, testNeo4jRunning, testServerEnv } from '../support/neo4j.js';

/**
 * The real Neo4j the fault stories SIGKILL and restart: the worker's own test server
 * (test/support/neo4j.ts), restarted in place (same data, same ports) so the worker's later
 * files find it where NEO4J_URI says. Only when the developer gave a server (NEO4J_URI, which
 * nobody may kill) do the stories start a private one, as they all did before round 8.
 */
export interface FaultNeo4j {
  boltUri: string;
  /** SIGKILL the JVM (no shutdown, no checkpoint) and wait until it is gone. */
  kill(): Promise<void>;
  /** Start it again on the same ports and data (Neo4j recovers from its transaction log). */
  start(): Promise<void>;
  /** The recovery line of the last restart's debug.log ("Recovery ... completed ... transactions applied"), if it logged one. */
  lastRecovery(): string | null;
  /** The stories are over: the worker's server is left running (restarted if a failed story left it dead); a private one is removed. */
  release(): Promise<void>;
}

const recoveryLine = (logged: string) => /Recovery .*completed[^\n]*/.exec(logged)?.[0] ?? null;
const note = (what: string, recovery: string | null) =>
  process.stderr.write(`    [faults] ${what}: ${recovery?.slice(0, 160) ?? 'no recovery logged'}\n`);

export async function faultNeo4j(): Promise<FaultNeo4j> {
  if (testNeo4jPid() === null) return startPrivateNeo4j();
  let recovery: string | null = null;
  // After release, a build still running from an interrupted story must not kill the next file's server.
  let released = false;
  return {
    boltUri: process.env.NEO4J_URI!,
    kill: async () => {
      if (!released) await killTestNeo4j();
    },
    start: async () => {
      const again = await restartTestNeo4j();
      recovery = recoveryLine(again.debugLog);
      note(`the worker's Neo4j restarted (${(again.startMs / 1000).toFixed(1)} s)`, recovery);
    },
    lastRecovery: () => recovery,
    release: async () => {
      released = true;
      if (!testNeo4jRunning()) note(`the worker's Neo4j restarted after a failed story (${((await restartTestNeo4j()).startMs / 1000).toFixed(1)} s)`, null);
    },
  };
}

/**
 * A private server in the OS temp dir (not test-instances/, whose reaper would take it for a
 * leftover), with the worker servers' settings (C1 JIT, a checkpoint every 2 s: neo4j.ts).
 */
async function startPrivateNeo4j(): Promise<FaultNeo4j> {
  const instanceDir = mkdtempSync(join(tmpdir(), 'dx-faults-neo4j-'));
  const env = testServerEnv({ ...process.env, NEO4J_HEAP_MAX: '768m', NEO4J_PAGECACHE: '128m' });
  const settings = launcherSettings({ env, instanceDir, boltPort: await freePort(), httpPort: await freePort() });
  const launcher = new Neo4jLauncher({ ...settings, layout: makeLayout({ home: defaultHome(), instanceDir }) });
  const started = await launcher.start();
  process.stderr.write(`    [faults] private Neo4j ${started.boltUri} (pid ${started.pid}, ${(started.startMs / 1000).toFixed(1)} s)\n`);
  // A test run killed half-way must not leave this JVM behind (nobody else would reap it).
  let last = started.pid;
  const reap = () => {
    try {
      if (last !== null) process.kill(last, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', reap);
  const debugLog = join(launcher.settings.layout.logsDir, 'debug.log');
  let recovery: string | null = null;
  return {
    boltUri: started.boltUri,
    kill: async () => {
      const p = runningPid(launcher.settings.layout);
      if (p === null) return;
      process.kill(p, 'SIGKILL');
      for (let i = 0; i < 400 && pidAlive(p); i++) await new Promise((r) => setTimeout(r, 25));
    },
    start: async () => {
      const from = existsSync(debugLog) ? statSync(debugLog).size : 0;
      const again = await launcher.start();
      last = again.pid;
      recovery = recoveryLine(readFileSync(debugLog).subarray(from).toString('utf8'));
      note(`private Neo4j restarted (${(again.startMs / 1000).toFixed(1)} s)`, recovery);
    },
    lastRecovery: () => recovery,
    release: async () => {
      process.off('exit', reap);
      await launcher.stop().catch(() => undefined);
      rmSync(instanceDir, { recursive: true, force: true });
    },
  };
}
