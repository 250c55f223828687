import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { archiveFlags } from './class-archive.js';
import type { JavaRuntime } from './java.js';
import type { Neo4jLayout } from './layout.js';
import type { LauncherSettings } from './settings.js';
import { ENTRY_POINT } from './versions.js';
import { pidAlive } from '../util/pid-alive.js';

/** JVM flags of the official distribution's launcher (Java 17), plus our heap size and class archive. */
export function jvmArgs(s: LauncherSettings, opts: { classArchive: string[] } = { classArchive: [] }): string[] {
  const l = s.layout;
  return [
    ...opts.classArchive,
    `-Xms${s.memory.heapInitial}`,
    `-Xmx${s.memory.heapMax}`,
    '-XX:+UseG1GC',
    '-XX:-OmitStackTraceInFastThrow',
    '-XX:+UnlockExperimentalVMOptions',
    '-XX:+TrustFinalNonStaticFields',
    '-XX:+DisableExplicitGC',
    '-XX:+ExitOnOutOfMemoryError',
    '-Djdk.nio.maxCachedBufferSize=1024',
    '-Dio.netty.tryReflectionSetAccessible=true',
    '-Dfile.encoding=UTF-8',
    '--add-opens=java.base/java.nio=ALL-UNNAMED',
    '--add-opens=java.base/java.io=ALL-UNNAMED',
    '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
    '--add-opens=java.base/java.util.concurrent=ALL-UNNAMED',
    ...s.jvmAdditional,
    '-cp',
    `${l.pluginsDir}/*:${l.confDir}/*:${l.libDir}/*`,
    ENTRY_POINT,
    `--home-dir=${l.instanceDir}`,
    `--config-dir=${l.confDir}`,
  ];
}

/** Start the server detached (own process group, output to logs/console.log); returns its pid. */
export function spawnServer(java: JavaRuntime, s: LauncherSettings): number {
  const l = s.layout;
  mkdirSync(l.logsDir, { recursive: true });
  mkdirSync(l.runDir, { recursive: true });
  // Fresh per start, so an error hint never quotes an older run.
  const out = openSync(l.consoleLog, 'w');
  try {
    // The training start writes the archive (ArchiveClassesAtExit): it must not also map one.
    const training = s.jvmAdditional.some((f) => f.startsWith('-XX:ArchiveClassesAtExit='));
    const classArchive = training ? [] : archiveFlags(l, java);
    const child = spawn(java.path, jvmArgs(s, { classArchive }), {
      cwd: l.instanceDir,
      detached: true,
      stdio: ['ignore', out, out],
      env: { ...process.env, NEO4J_HOME: l.instanceDir, NEO4J_CONF: l.confDir },
    });
    child.unref();
    if (child.pid === undefined) throw new Error(`could not start ${java.path}`);
    writeFileSync(l.pidFile, `${child.pid}\n`);
    return child.pid;
  } finally {
    closeSync(out);
  }
}

/**
 * Is `pid` our Neo4j for this instance? Checks the command line, so a recycled pid of
 * an unrelated process (or a zombie, whose cmdline is empty) never counts.
 */
export function isOurServer(pid: number, layout: Neo4jLayout): boolean {
  const procFile = `/proc/${pid}/cmdline`;
  if (existsSync('/proc/self/cmdline')) {
    try {
      const cmd = readFileSync(procFile, 'utf8').split('\0');
      return cmd.includes(ENTRY_POINT) && cmd.includes(`--home-dir=${layout.instanceDir}`);
    } catch {
      return false;
    }
  }
  return pidAlive(pid);
}

export function readPid(layout: Neo4jLayout): number | null {
  if (!existsSync(layout.pidFile)) return null;
  const pid = Number(readFileSync(layout.pidFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The pid of the running server of this instance, or null (removing a stale pid file). */
export function runningPid(layout: Neo4jLayout): number | null {
  const pid = readPid(layout);
  if (pid === null) return null;
  if (isOurServer(pid, layout)) return pid;
  rmSync(layout.pidFile, { force: true });
  return null;
}

async function waitGone(pid: number, layout: Neo4jLayout, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isOurServer(pid, layout)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return !isOurServer(pid, layout);
}

/** SIGTERM (Neo4j shuts down cleanly, ~10 s), SIGKILL after the timeout. */
export async function stopServer(pid: number, layout: Neo4jLayout, timeoutMs: number): Promise<'terminated' | 'killed'> {
  let how: 'terminated' | 'killed' = 'terminated';
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  if (!(await waitGone(pid, layout, timeoutMs))) {
    how = 'killed';
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    await waitGone(pid, layout, 10_000);
  }
  rmSync(layout.pidFile, { force: true });
  return how;
}
