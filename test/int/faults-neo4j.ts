import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Neo4jLauncher, defaultHome, freePort, launcherSettings, makeLayout } from '../../src/neo4j-launcher/index.js';
import { runningPid } from '../../src/neo4j-launcher/process.js';
import { pidAlive } from '../../src/util/pid-alive.js';

/**
 * A second, private Neo4j for the fault tests, so they can SIGKILL and restart a real
 * server without touching the shared test Neo4j other integration tests use. Its
 * instance directory lives in the OS temp dir (not test-instances/, whose reaper would
 * take it for a leftover) and is deleted by `remove()`.
 */
export interface OwnNeo4j {
  boltUri: string;
  pid(): number | null;
  /** SIGKILL the JVM (no shutdown, no checkpoint) and wait until it is gone. */
  kill(): Promise<void>;
  /** Start it again on the same ports and data (Neo4j recovers from its transaction log). */
  start(): Promise<void>;
  /** The recovery line of the last restart's debug.log ("Recovery ... completed ... transactions applied"), if it logged one. */
  lastRecovery(): string | null;
  remove(): Promise<void>;
}

export async function startOwnNeo4j(): Promise<OwnNeo4j> {
  const instanceDir = mkdtempSync(join(tmpdir(), 'dx-faults-neo4j-'));
  const boltPort = await freePort();
  const httpPort = await freePort();
  // C1 only (no C2 JIT): this server is started and restarted and does small, short work on a
  // cold JVM each time, where C2 compiling is most of its CPU. Measured on one build of the
  // fault corpus (load 16-18): start + first build 54 -> 25 s of Neo4j CPU, a restart after
  // SIGKILL 31 -> 19 s, the first build after it 47 -> 25 s, a warm build 14 -> 7 s. The workers'
  // shared servers keep C2 (heavy loads there run 2x slower on C1, docs/testing.md).
  const jit = [process.env.NEO4J_JVM_ADDITIONAL ?? '', '-XX:TieredStopAtLevel=1'].join(' ').trim();
  // A checkpoint every 2 s (the default is 15 min): a restart after SIGKILL replays the
  // transaction log from the last checkpoint, which otherwise is the server's start, so the
  // restart replayed every build the stories had made: 14.5 s of its CPU against 7.1-7.4 s
  // (16 s -> 6 s wall, load 2-6). The kill still lands on transactions no checkpoint has
  // flushed (the load batches just before it), and the restart still recovers them from the log.
  const conf = [process.env.NEO4J_CONF_ADDITIONAL ?? '', 'db.checkpoint.interval.time=2s'].join(' ').trim();
  const env = { ...process.env, NEO4J_PASSWORD: '', NEO4J_HEAP_MAX: '768m', NEO4J_PAGECACHE: '128m', NEO4J_JVM_ADDITIONAL: jit, NEO4J_CONF_ADDITIONAL: conf };
  const settings = launcherSettings({ env, instanceDir, boltPort, httpPort });
  const launcher = new Neo4jLauncher({ ...settings, layout: makeLayout({ home: defaultHome(), instanceDir }) });
  const started = await launcher.start();
  process.stderr.write(`    [faults] own Neo4j ${started.boltUri} (pid ${started.pid}, ${(started.startMs / 1000).toFixed(1)} s)\n`);
  const pid = () => runningPid(launcher.settings.layout);
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
  const logSize = () => (existsSync(debugLog) ? statSync(debugLog).size : 0);
  let recovery: string | null = null;
  return {
    boltUri: started.boltUri,
    pid,
    kill: async () => {
      const p = pid();
      if (p === null) return;
      process.kill(p, 'SIGKILL');
      for (let i = 0; i < 200 && pidAlive(p); i++) await new Promise((r) => setTimeout(r, 50));
    },
    start: async () => {
      const from = logSize();
      const again = await launcher.start();
      last = again.pid;
      const logged = readFileSync(debugLog).subarray(from).toString('utf8');
      recovery = /Recovery .*completed[^\n]*/.exec(logged)?.[0] ?? null;
      process.stderr.write(`    [faults] own Neo4j restarted (${(again.startMs / 1000).toFixed(1)} s): ${recovery?.slice(0, 160) ?? 'no recovery logged'}\n`);
    },
    lastRecovery: () => recovery,
    remove: async () => {
      process.off('exit', reap);
      await launcher.stop().catch(() => undefined);
      rmSync(instanceDir, { recursive: true, force: true });
    },
  };
}
