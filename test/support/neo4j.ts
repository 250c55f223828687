import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { Neo4jLauncher, defaultHome, freePort, launcherSettings, makeLayout } from '../../src/neo4j-launcher/index.js';
import { runningPid, stopServer } from '../../src/neo4j-launcher/process.js';
import { pidAlive } from '../../src/util/pid-alive.js';
import { processCpuMs } from '../../src/util/proc-cpu.js';
import { neo4jLifeEnded, neo4jLifeStarted } from './file-times.js';

/**
 * Integration tests talk to a real Neo4j over Bolt. With NEO4J_URI set, that server is
 * used as is. Without it, a dedicated server is started from the project's assembled
 * jars in its own instance directory (its own data, so clearDatabase never touches a
 * developer's graph), on free ports (NEO4J_URI is set for the tests to read).
 */
interface TestServer {
  launcher: Neo4jLauncher | null;
  /** The JVM's pid; null for a server the developer gave (NEO4J_URI). */
  pid: number | null;
  boltUri: string;
  httpUrl: string;
}

/**
 * This process's server and stores live on globalThis, not in module variables: mocha loads the
 * root hooks (test/int/hooks.ts) with require(), and a test file whose imports hold a top-level
 * await (dictionary-en) with import() after require() refuses it, so this module can be loaded
 * twice in one worker (once CommonJS, once ESM). Both copies must see the one server the hooks
 * started (the fault stories kill and restart it) and close the stores a file opened.
 */
const state: { server: TestServer | null; stores: GraphStore[] } = ((globalThis as Record<symbol, unknown>)[Symbol.for('dxgraph.test-neo4j')] ??= {
  server: null,
  stores: [],
}) as { server: TestServer | null; stores: GraphStore[] };

function instancesRoot(): string {
  return join(defaultHome(), 'test-instances');
}

/** The test run a Neo4j instance belongs to: the pid of its main mocha process (workers inherit it). */
export function testRunId(): string {
  return process.env.DXGRAPH_TEST_RUN ?? String(process.pid);
}

/** Instance dirs are named `<run pid>-<worker pid>`: the run's main process owns them. */
const ownerOf = (name: string) => Number(name.split('-')[0]);

function layoutOf(name: string) {
  return makeLayout({ home: defaultHome(), instanceDir: join(instancesRoot(), name) });
}

/** Stop an instance's server if it runs, delete its files. */
async function removeInstance(name: string): Promise<void> {
  const layout = layoutOf(name);
  const pid = runningPid(layout);
  // No clean shutdown (a checkpoint, seconds) for data deleted the next moment: SIGTERM then SIGKILL.
  if (pid !== null) await stopServer(pid, layout, 0);
  // Acceptance: stop leaves no process behind. Give the OS a moment to reap it.
  for (let i = 0; pid !== null && pidAlive(pid) && i < 50; i++) await new Promise((r) => setTimeout(r, 100));
  if (pid !== null && pidAlive(pid)) throw new Error(`Neo4j test server pid ${pid} still alive after stop`);
  rmSync(layout.instanceDir, { recursive: true, force: true });
}

/**
 * Instances left by a test run that was killed: stop their server, delete their files. Also run
 * by `npm test` when it stops the integration suite early (scripts/test.ts).
 */
export async function reapStaleInstances(): Promise<void> {
  const root = instancesRoot();
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    const owner = ownerOf(name);
    if (Number.isInteger(owner) && pidAlive(owner)) continue;
    await removeInstance(name);
  }
}

/**
 * The environment a test Neo4j starts with (the workers' servers, and the fault stories' private
 * one under a developer's NEO4J_URI). Auth off for the throwaway test server, whatever the
 * developer's env says. C1 JIT only (issue 49): a test server lives minutes and runs many small,
 * different queries, so C2's compilations never pay back; measured on eval.test.ts at the same
 * load: the server's CPU 60 -> 30 s, the file 259 -> 158 s. (A long heavy load, 200,000 nodes and
 * 300 scans, is twice as slow on C1: that is not what the stories run.)
 * A checkpoint every 2 s (the default is 15 min): the fault stories SIGKILL this server and
 * restart it (killTestNeo4j), and a restart replays the transaction log from the last
 * checkpoint, otherwise the server's start: every build of the worker's files. A checkpoint
 * only runs when transactions came since the last one, so idle seconds cost nothing.
 * A NEO4J_CONF_ADDITIONAL that sets the interval itself wins (measuring without: =15m).
 */
export function testServerEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const jit = [base.NEO4J_JVM_ADDITIONAL ?? '', '-XX:TieredStopAtLevel=1'].join(' ').trim();
  const given = base.NEO4J_CONF_ADDITIONAL ?? '';
  const conf = /\bdb\.checkpoint\.interval\.time=/.test(given) ? given : `${given} db.checkpoint.interval.time=2s`.trim();
  return { ...base, NEO4J_PASSWORD: '', NEO4J_JVM_ADDITIONAL: jit, NEO4J_CONF_ADDITIONAL: conf };
}

export async function startTestNeo4j(): Promise<TestServer> {
  if (state.server) return state.server;
  if (process.env.NEO4J_URI) {
    const host = new URL(process.env.NEO4J_URI.replace(/^[a-z+]+:/, 'http:')).hostname;
    state.server = { launcher: null, pid: null, boltUri: process.env.NEO4J_URI, httpUrl: process.env.NEO4J_HTTP_URL ?? `http://${host}:7474` };
    return state.server;
  }
  await reapStaleInstances();
  // Free ports, not 7687/7474: several test runs (and a developer's own server) share
  // this machine, and two runs racing for the default ports would collide.
  const boltPort = await freePort();
  const httpPort = await freePort();
  const env = testServerEnv();
  const launcher = new Neo4jLauncher(
    launcherSettings({ env, instanceDir: join(instancesRoot(), `${testRunId()}-${process.pid}`), boltPort, httpPort }),
  );
  const started = await launcher.start();
  process.env.NEO4J_URI = started.boltUri;
  process.env.NEO4J_PASSWORD = '';
  state.server = { launcher, pid: started.pid, boltUri: started.boltUri, httpUrl: `http://127.0.0.1:${httpPort}` };
  // Its start's CPU is charged to no file (file-times.ts starts counting after it): printed here.
  const cpu = processCpuMs(started.pid);
  const cpuText = cpu === null ? '' : `, ${(cpu / 1000).toFixed(1)} s CPU`;
  process.stderr.write(`  [int] Neo4j test server ${started.boltUri} (pid ${started.pid}, ${(started.startMs / 1000).toFixed(1)} s${cpuText})\n`);
  return state.server;
}

/** The pid of this worker's test Neo4j (its CPU is charged to the files, file-times.ts); null if none or not ours. */
export function testNeo4jPid(): number | null {
  return state.server?.pid ?? null;
}

/** This worker's own server (one it started, so one it may kill), or an error naming why not. */
function ownServer(): TestServer & { launcher: Neo4jLauncher; pid: number } {
  if (!state.server?.launcher || state.server.pid === null) throw new Error('no Neo4j test server of this worker (none started, or NEO4J_URI names one of yours)');
  return state.server as TestServer & { launcher: Neo4jLauncher; pid: number };
}

/**
 * SIGKILL this worker's test Neo4j (no shutdown, no checkpoint: the fault stories) and wait until
 * it is gone. Its CPU is read just before, so the file is charged its share (file-times.ts).
 */
export async function killTestNeo4j(): Promise<void> {
  const s = ownServer();
  const pid = s.pid;
  if (!pidAlive(pid)) return;
  neo4jLifeEnded(processCpuMs(pid));
  process.kill(pid, 'SIGKILL');
  // Gone once the worker (its parent) has reaped it; a zombie still answers signal 0.
  for (let i = 0; i < 400 && pidAlive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  if (pidAlive(pid)) throw new Error(`Neo4j test server pid ${pid} still alive after SIGKILL`);
}

/** Does this worker's test Neo4j run? (A fault file restarts one its failed story left dead.) */
export function testNeo4jRunning(): boolean {
  const s = ownServer();
  return s.launcher.status().running;
}

/**
 * Start this worker's test Neo4j again in place after a kill: the same instance directory, data and
 * ports, so NEO4J_URI stays valid for the worker's later files; Neo4j recovers from its transaction
 * log. Returns what the start wrote to debug.log (its recovery lines) and how long it took.
 */
export async function restartTestNeo4j(): Promise<{ startMs: number; debugLog: string }> {
  const s = ownServer();
  const debugLog = join(s.launcher.settings.layout.logsDir, 'debug.log');
  const from = existsSync(debugLog) ? statSync(debugLog).size : 0;
  const started = await s.launcher.start();
  if (started.pid === null) throw new Error('Neo4j test server restarted without a pid');
  if (!started.alreadyRunning) neo4jLifeStarted(started.pid);
  s.pid = started.pid;
  const logged = existsSync(debugLog) ? readFileSync(debugLog).subarray(from).toString('utf8') : '';
  return { startMs: started.startMs, debugLog: logged };
}

/** Close the GraphStores testGraphStore() opened (after each file: a worker runs many). */
export async function closeTestStores(): Promise<void> {
  while (state.stores.length) await state.stores.pop()!.close();
}

/**
 * Stop every Neo4j this run started (each worker's), from the main process once the workers
 * are gone; a server the developer gave (NEO4J_URI) is left alone.
 */
export async function stopRunNeo4j(): Promise<void> {
  await closeTestStores();
  state.server = null;
  const root = instancesRoot();
  if (!existsSync(root)) return;
  const run = testRunId();
  // Stopped together: each waits for its JVM to be gone.
  await Promise.all(readdirSync(root).filter((name) => name.startsWith(`${run}-`)).map(removeInstance));
}

/** Base URL of the test server's HTTP connector (Browser at /browser/). */
export function neo4jHttpUrl(): string {
  if (!state.server) throw new Error('Neo4j test server not started (is test/int/hooks.ts loaded?)');
  return state.server.httpUrl;
}

/** A connected GraphStore on the test server; closed automatically after the file (root afterAll hook). */
export async function testGraphStore(): Promise<GraphStore> {
  const cfg = loadConfig();
  const store = new GraphStore(cfg.neo4j);
  await store.connect();
  state.stores.push(store);
  return store;
}

/** Delete every node and relationship (in batches); with `schema`, drop constraints and indexes too. */
export async function clearDatabase(opts: { store?: GraphStore; schema?: boolean } = {}): Promise<void> {
  const store = opts.store ?? (await testGraphStore());
  for (;;) {
    const rows = await store.runText('MATCH (n) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS c', {}, 'WRITE');
    if (Number(rows[0]?.c ?? 0) === 0) break;
  }
  if (!opts.schema) return;
  const quote = (name: unknown) => `\`${String(name).replace(/`/g, '``')}\``;
  for (const r of await store.runText('SHOW CONSTRAINTS YIELD name RETURN name', {}, 'READ')) {
    await store.runText(`DROP CONSTRAINT ${quote(r.name)} IF EXISTS`, {}, 'WRITE');
  }
  for (const r of await store.runText("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name", {}, 'READ')) {
    await store.runText(`DROP INDEX ${quote(r.name)} IF EXISTS`, {}, 'WRITE');
  }
}
