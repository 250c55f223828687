import { existsSync, readFileSync, rmSync } from 'node:fs';
import { SetupError } from '../errors.js';
import { assemble, isAssembled, type AssembleResult } from './assemble.js';
import { portsFromConf, writeNeo4jConf } from './config-writer.js';
import { hasSystemDatabase, setInitialPassword } from './initial-password.js';
import { findJava } from './java.js';
import { isPortFree } from './ports.js';
import { runningPid, spawnServer, stopServer } from './process.js';
import { boltUri, browserUrl, type LauncherSettings } from './settings.js';
import { probeBolt, probeHttp, waitUntilUp } from './wait-bolt.js';
import { fileSize, logSays, tailLines } from './log-tail.js';

export interface Neo4jStatus {
  assembled: boolean;
  running: boolean;
  pid: number | null;
  boltUri: string;
  browserUrl: string;
}

export interface StartResult extends Neo4jStatus {
  alreadyRunning: boolean;
  startMs: number;
}

/** install / start / stop / status of one local Neo4j instance. All I/O happens in the methods. */
export class Neo4jLauncher {
  constructor(readonly settings: LauncherSettings) {}

  install(opts: { force?: boolean } = {}): AssembleResult {
    return assemble(this.settings.layout, opts);
  }

  status(): Neo4jStatus {
    const l = this.settings.layout;
    const pid = runningPid(l);
    // A running server keeps the ports it was started with, whatever the env says now.
    const conf = pid !== null && existsSync(l.confFile) ? portsFromConf(readFileSync(l.confFile, 'utf8')) : null;
    const s = { ...this.settings, boltPort: conf?.boltPort ?? this.settings.boltPort, httpPort: conf?.httpPort ?? this.settings.httpPort };
    return { assembled: isAssembled(l), running: pid !== null, pid, boltUri: boltUri(s), browserUrl: browserUrl(s) };
  }

  async start(): Promise<StartResult> {
    const s = this.settings;
    const l = s.layout;
    if (!isAssembled(l)) throw new SetupError(`Neo4j is not assembled in ${l.home}; run \`npm run setup\` or \`dxgraph neo4j install\``);
    const current = this.status();
    if (current.running) {
      await this.waitReady(current.pid!, { boltUri: current.boltUri, browserUrl: current.browserUrl });
      return { ...current, alreadyRunning: true, startMs: 0 };
    }
    for (const [name, port] of [['NEO4J_BOLT_PORT', s.boltPort], ['NEO4J_HTTP_PORT', s.httpPort]] as const) {
      if (!(await isPortFree(port))) {
        throw new SetupError(`port ${port} on 127.0.0.1 is already in use (another Neo4j?); stop it or set ${name} to a free port`);
      }
    }
    const java = findJava();
    writeNeo4jConf(s);
    if (s.auth && !hasSystemDatabase(s)) setInitialPassword(java.path, s, s.auth.password);
    const t0 = Date.now();
    const logOffset = fileSize(l.neo4jLog);
    const freshData = !hasSystemDatabase(s);
    const pid = spawnServer(java, s);
    try {
      // Another server grabbing the same port between our check and Neo4j's bind must not
      // pass for ours: also require our own log to say "Started.".
      await this.waitReady(pid, { boltUri: boltUri(s), browserUrl: browserUrl(s), logOffset });
    } catch (e) {
      await stopServer(pid, l, s.stopTimeoutMs);
      // A database stopped while being created cannot be recovered ("Transaction logs are
      // missing"); nothing was in it, so remove it and let the next start create it anew.
      if (freshData) rmSync(l.dataDir, { recursive: true, force: true });
      throw e;
    }
    return { ...this.status(), alreadyRunning: false, startMs: Date.now() - t0 };
  }

  /** Bolt first (what clients need), then HTTP, which Neo4j opens a few seconds later. */
  private async waitReady(pid: number, at: { boltUri: string; browserUrl: string; logOffset?: number }): Promise<void> {
    const s = this.settings;
    const isAlive = () => runningPid(s.layout) === pid;
    const deadline = Date.now() + s.startTimeoutMs;
    const bolt = await waitUntilUp({ probe: () => probeBolt(at.boltUri, s.auth), isAlive, timeoutMs: s.startTimeoutMs });
    if (!bolt.ok) throw this.startError('Bolt', at.boltUri, bolt);
    const http = await waitUntilUp({ probe: () => probeHttp(at.browserUrl), isAlive, timeoutMs: Math.max(5000, deadline - Date.now()) });
    if (!http.ok) throw this.startError('HTTP', at.browserUrl, http);
    if (at.logOffset === undefined) return;
    const logPath = s.layout.neo4jLog;
    const logged = await waitUntilUp({ probe: async () => logSays(logPath, at.logOffset!, 'Started.'), isAlive, timeoutMs: 30_000 });
    if (!logged.ok && logged.why === 'timeout') {
      throw new SetupError(
        `something answered at ${at.boltUri} but this server (pid ${pid}) never logged "Started." in ${logPath}: ` +
          'another Neo4j probably took the port; stop it or set NEO4J_BOLT_PORT / NEO4J_HTTP_PORT',
      );
    }
    if (!logged.ok) throw this.startError('Bolt', at.boltUri, logged);
  }

  private startError(what: string, addr: string, out: { why: string; reason: string }): SetupError {
    const l = this.settings.layout;
    const log = existsSync(l.neo4jLog) ? l.neo4jLog : l.consoleLog;
    const hint = tailLines([l.consoleLog, l.neo4jLog], /ERROR|Exception|Caused by/, 2);
    const head =
      out.why === 'exited'
        ? `Neo4j exited before ${what} answered at ${addr}`
        : out.why === 'fatal'
          ? `Neo4j refused the credentials at ${addr} (${out.reason}); check NEO4J_USER/NEO4J_PASSWORD or run \`dxgraph neo4j reset\``
          : `Neo4j did not answer on ${what} at ${addr} within ${Math.round(this.settings.startTimeoutMs / 1000)} s (last: ${out.reason})`;
    const reset = /Transaction logs are missing|recovery/i.test(hint) ? '; `dxgraph neo4j reset` deletes the damaged database' : '';
    return new SetupError(`${head}; see ${log}${hint ? ` (${hint})` : ''}${reset}`);
  }

  async stop(): Promise<{ wasRunning: boolean; how: 'terminated' | 'killed' | null }> {
    const l = this.settings.layout;
    const pid = runningPid(l);
    if (pid === null) return { wasRunning: false, how: null };
    const how = await stopServer(pid, l, this.settings.stopTimeoutMs);
    return { wasRunning: true, how };
  }

  /** Delete the database files (a clean graph, or to apply a new NEO4J_PASSWORD). */
  reset(): void {
    if (this.status().running) throw new SetupError('Neo4j is running; run `dxgraph neo4j stop` before reset');
    rmSync(this.settings.layout.dataDir, { recursive: true, force: true });
  }
}
