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
 * stopped), and the worker's test Neo4j's, which runs detached and is never reaped by a file.
 */

interface Mark {
  at: number;
  worker: NodeJS.CpuUsage;
  children: number | null;
  neo4jPid: number | null;
  neo4j: number | null;
}

let mark: Mark | null = null;

/** `neo4jPid`: the worker's test server, whose CPU is charged to the file too. */
export function fileStarted(opts: { neo4jPid?: number | null } = {}): void {
  const neo4jPid = opts.neo4jPid ?? null;
  mark = { at: Date.now(), worker: process.cpuUsage(), children: childrenCpuMs(), neo4jPid, neo4j: processCpuMs(neo4jPid) };
}

/** The CPU since fileStarted; null without /proc. A server that died meanwhile counts as 0. */
function cpuSince(m: Mark): FileCpu | null {
  const children = childrenCpuMs();
  if (children === null || m.children === null) return null;
  const w = process.cpuUsage(m.worker);
  const neo4jNow = processCpuMs(m.neo4jPid);
  const neo4j = neo4jNow === null || m.neo4j === null ? 0 : Math.max(0, neo4jNow - m.neo4j);
  return { worker: Math.round((w.user + w.system) / 1000), children: children - m.children, neo4j };
}

export function fileDone(root: Mocha.Suite): void {
  const out = process.env.DXGRAPH_TEST_FILE_TIMES;
  const file = root.suites.find((s) => s.file)?.file;
  const m = mark;
  mark = null;
  if (!out || process.env.MOCHA_WORKER_ID === undefined || !file || !m) return;
  const cpu = cpuSince(m);
  const row: FileTime = { file: relative(process.cwd(), file), ms: Date.now() - m.at, tests: root.total(), ...(cpu ? { cpu } : {}) };
  appendFileSync(out, JSON.stringify(row) + '\n');
}
