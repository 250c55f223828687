/**
 * `npm run test:times [-- unit|int]`: runs the unit and/or integration suites as `npm test` does
 * and prints the time of every test file, slowest first (issue 49), so a slow story is seen
 * the day it lands. `npm test` itself prints the ten slowest files of each suite.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTimesTable, type FileTime } from '../test/support/file-times-table.cjs';

type Row = FileTime;

const SUITES = ['unit', 'int'] as const;
const asked = process.argv.slice(2);
const bad = asked.filter((a) => !(SUITES as readonly string[]).includes(a));
if (bad.length) {
  process.stderr.write(`usage: npm run test:times [-- unit|int ...] (unknown: ${bad.join(' ')})\n`);
  process.exit(2);
}
const suites = asked.length ? asked : [...SUITES];
const dir = mkdtempSync(join(tmpdir(), 'dxgraph-test-times-'));
const rows: Row[] = [];
let failed = false;
try {
  for (const suite of suites) {
    const out = join(dir, `${suite}.json`);
    // The suite's own table is cut to nothing: one table of every file is printed below.
    const env = { ...process.env, DXGRAPH_TEST_TIMES_OUT: out, DXGRAPH_TEST_TIMES_TOP: '0' };
    const run = spawnSync('npm', ['run', `test:${suite}`], { env, stdio: 'inherit' });
    if (run.status !== 0) failed = true;
    try {
      rows.push(...(JSON.parse(readFileSync(out, 'utf8')) as Row[]));
    } catch {
      process.stderr.write(`test:${suite} wrote no times (status ${run.status})\n`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
rows.sort((a, b) => b.ms - a.ms);
// CPU per file where the suite measured it (its workers, test/support/file-times.ts): worker,
// reaped children, the worker's test Neo4j. The suite is CPU-bound on 2 cores: its wall follows CPU.
const t = fileTimesTable(rows, 'Time per test file, slowest first, summed');
process.stdout.write(['', t.title, ...(t.header ? [t.header] : []), ...t.lines].join('\n') + '\n');
process.exit(failed ? 1 : 0);
