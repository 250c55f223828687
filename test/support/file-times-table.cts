// The "time per file" table of the reporter (file-times-reporter.cts) and `npm run test:times`
// (scripts/test-times.ts). CommonJS (.cts) because mocha loads the reporter with require().

/** CPU milliseconds a file cost (test/support/file-times.ts measures them in its worker). */
export interface FileCpu {
  /** The mocha worker's own (process.cpuUsage). */
  worker: number;
  /** Its children it reaped during the file (/proc/self/stat cutime + cstime): CLI runs, servers, a private Neo4j. */
  children: number;
  /** The worker's test Neo4j (/proc/<pid>/stat utime + stime). */
  neo4j: number;
}

export interface FileTime {
  file: string;
  ms: number;
  tests: number;
  /** Absent where not measured (a serial run, or no /proc). */
  cpu?: FileCpu;
}

const secs = (ms: number, width: number) => (ms / 1000).toFixed(1).padStart(width);
const cpuTotal = (c: FileCpu) => c.worker + c.children + c.neo4j;

/** The table: a title with the totals, the columns' header (with CPU only), a line per row in the order given. */
export function fileTimesTable(rows: readonly FileTime[], what: string): { title: string; header: string | null; lines: string[] } {
  const wall = rows.reduce((s, r) => s + r.ms, 0);
  const measured = rows.filter((r) => r.cpu);
  if (measured.length === 0) {
    const lines = rows.map((r) => `${secs(r.ms, 7)} s  ${String(r.tests).padStart(4)} tests  ${r.file}`);
    return { title: `${what} (${rows.length} files, ${secs(wall, 0)} s):`, header: null, lines };
  }
  const sum = (k: keyof FileCpu) => measured.reduce((s, r) => s + r.cpu![k], 0);
  const title =
    `${what} (${rows.length} files, ${secs(wall, 0)} s wall; CPU ${secs(sum('worker') + sum('children') + sum('neo4j'), 0)} s = ` +
    `worker ${secs(sum('worker'), 0)} + children ${secs(sum('children'), 0)} + Neo4j ${secs(sum('neo4j'), 0)} s):`;
  const header = `${'wall s'.padStart(7)}  tests ${'CPU s'.padStart(7)} ${'worker'.padStart(7)} ${'child'.padStart(7)} ${'Neo4j'.padStart(7)}  file`;
  const line = (r: FileTime) => {
    const cpu = r.cpu ? [cpuTotal(r.cpu), r.cpu.worker, r.cpu.children, r.cpu.neo4j].map((v) => secs(v, 7)).join(' ') : ['-', '-', '-', '-'].map((v) => v.padStart(7)).join(' ');
    return `${secs(r.ms, 7)} ${String(r.tests).padStart(6)} ${cpu}  ${r.file}`;
  };
  return { title, header, lines: rows.map(line) };
}
