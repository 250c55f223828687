import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { childrenCpuMs, processCpuMs } from '../../src/util/proc-cpu.js';
import type { FileCpu, FileTime } from './file-times-table.cjs';

/**
 * In a parallel worker, the time of each test file, from its first root hook to its last,
 * appended to the file the reporter (file-times-reporter.cts) named in DXGRAPH_TEST_FILE_TIMES:
 * the main process only sees a worker's events once its file is done. Beside the wall time, the
 * CPU the file cost (issue 49: the suite is CPU-bound on 2 cores, so wall follows CPU): the
 * worker's own, its reaped children's (`dxgraph` CLI runs, servers, a private Neo4j the file
 * stopped), and the worker's test Neo4j's, which runs detached and is never reaped by a file,
 * except when a fault story kills it (neo4jLifeEnded / neo4jLifeStarted follow the new pid).
 */

interface Mark {
  at: number;
  worker: NodeJS.CpuUsage;
  children: number | null;
  /** The test server's life running now, and its CPU when the file started (0 for a life the file started). */
  neo4jPid: number | null;
  neo4j: number | null;
  /** Lives that ended in the file (a fault story's SIGKILL): the file's share of their CPU, and their whole CPU. */
  ended: { share: number; whole: number };
}

/**
 * On globalThis, not in a module variable: this module can be loaded twice in one worker (the root
 * hooks with require(), a test file with import() when its imports hold a top-level await), and
 * test/support/neo4j.ts's copy must move the mark the hooks' copy set (neo4jLifeEnded / Started).
 */
const state = ((globalThis as Record<symbol, unknown>)[Symbol.for('dxgraph.file-times')] ??= { mark: null }) as { mark: Mark | null };

/** `neo4jPid`: the worker's test server, whose CPU is charged to the file too. */
export function fileStarted(opts: { neo4jPid?: number | null } = {}): void {
  const neo4jPid = opts.neo4jPid ?? null;
  state.mark = { at: Date.now(), worker: process.cpuUsage(), children: childrenCpuMs(), neo4jPid, neo4j: processCpuMs(neo4jPid), ended: { share: 0, whole: 0 } };
}

/**
 * The worker's test Neo4j is about to die (SIGKILL in a fault story; test/support/neo4j.ts reads its
 * CPU just before). The worker spawned that JVM, so once it is reaped its whole life's CPU shows up
 * among the worker's children: taken off them here and charged as Neo4j, this file's share only
 * (the start and the earlier files' share were charged before).
 */
export function neo4jLifeEnded(cpuMs: number | null): void {
  if (!state.mark || state.mark.neo4jPid === null) return;
  if (cpuMs !== null && state.mark.neo4j !== null) {
    state.mark.ended.share += Math.max(0, cpuMs - state.mark.neo4j);
    state.mark.ended.whole += cpuMs;
  }
  state.mark.neo4jPid = null;
  state.mark.neo4j = null;
}

/** The worker's test Neo4j runs again under a new pid (a restart in place): its whole CPU is this file's. */
export function neo4jLifeStarted(pid: number): void {
  if (!state.mark) return;
  state.mark.neo4jPid = pid;
  state.mark.neo4j = 0;
}

/** The CPU since fileStarted; null without /proc. A server that died meanwhile counts as 0. */
function cpuSince(m: Mark): FileCpu | null {
  const children = childrenCpuMs();
  if (children === null || m.children === null) return null;
  const w = process.cpuUsage(m.worker);
  const neo4jNow = processCpuMs(m.neo4jPid);
  const neo4j = m.ended.share + (neo4jNow === null || m.neo4j === null ? 0 : Math.max(0, neo4jNow - m.neo4j));
  return { worker: Math.round((w.user + w.system) / 1000), children: Math.max(0, children - m.children - m.ended.whole), neo4j };
}

export function fileDone(root: Mocha.Suite): void {
  const out = process.env.DXGRAPH_TEST_FILE_TIMES;
  const file = root.suites.find((s) => s.file)?.file;
  const m = state.mark;
  state.mark = null;
  if (!out || process.env.MOCHA_WORKER_ID === undefined || !file || !m) return;
  const cpu = cpuSince(m);
  const row: FileTime = { file: relative(process.cwd(), file), ms: Date.now() - m.at, tests: root.total(), ...(cpu ? { cpu } : {}) };
  appendFileSync(out, JSON.stringify(row) + '\n');
}
