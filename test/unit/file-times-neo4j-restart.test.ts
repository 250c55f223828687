import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { transpiledBeside } from '../support/ts-entry.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const FILE_TIMES_TS = join(ROOT, 'test/support/file-times.ts');
const PROC_CPU_TS = join(ROOT, 'src/util/proc-cpu.ts');

/**
 * A fault story SIGKILLs the worker's test Neo4j and restarts it under a new pid
 * (test/support/neo4j.ts). The worker spawned that JVM, so its whole life's CPU lands among the
 * worker's reaped children: the file must be charged only its share of the old life, as Neo4j,
 * plus the new life. Played here in a process of its own (file-times keeps one mark per process)
 * by two busy children, stopped (SIGSTOP) wherever their CPU is read so every figure is exact.
 */
describe('file-times: a file that kills and restarts its worker Neo4j is charged its share', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dx-times-restart-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the old life from the file start to the kill plus the new life, as Neo4j; none of it as children', async () => {
    const imp = (ts: string) => JSON.stringify(transpiledBeside(ts) ?? ts);
    const script = join(dir, 'restart.mjs');
    writeFileSync(script, `
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileDone, fileStarted, neo4jLifeEnded, neo4jLifeStarted } from ${imp(FILE_TIMES_TS)};
import { processCpuMs } from ${imp(PROC_CPU_TS)};
const busy = () => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
const cpu = (p) => processCpuMs(p.pid) ?? 0;
const until = async (p, ms) => { while (cpu(p) < ms) await new Promise((r) => setTimeout(r, 10)); };
const stopped = async (p, f) => { process.kill(p.pid, 'SIGSTOP'); await new Promise((r) => setTimeout(r, 50)); try { return f(); } finally { process.kill(p.pid, 'SIGCONT'); } };
const a = busy();
await until(a, 200);
const atStart = await stopped(a, () => (fileStarted({ neo4jPid: a.pid }), cpu(a)));
await until(a, atStart + 150);
process.kill(a.pid, 'SIGSTOP');
await new Promise((r) => setTimeout(r, 50));
const atKill = cpu(a);
neo4jLifeEnded(atKill);
a.kill('SIGKILL');
await once(a, 'exit');
const b = busy();
neo4jLifeStarted(b.pid);
await until(b, 150);
process.kill(b.pid, 'SIGSTOP');
await new Promise((r) => setTimeout(r, 50));
const atEnd = cpu(b);
fileDone({ suites: [{ file: ${JSON.stringify(join(ROOT, 'fake.test.ts'))} }], total: () => 1 });
b.kill('SIGKILL');
await once(b, 'exit');
console.log(JSON.stringify({ atStart, atKill, atEnd }));
`);
    const out = join(dir, 'times.jsonl');
    const loader = transpiledBeside(FILE_TIMES_TS) ? [] : ['--import', 'tsx'];
    const env = { ...process.env, DXGRAPH_TEST_FILE_TIMES: out, MOCHA_WORKER_ID: '0' };
    const { stdout } = await run(process.execPath, [...loader, script], { cwd: ROOT, env });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!) as { atStart: number; atKill: number; atEnd: number };
    const row = JSON.parse(readFileSync(out, 'utf8').trim()) as { file: string; cpu: { worker: number; children: number; neo4j: number } };
    assert.equal(row.file, 'fake.test.ts');
    assert.ok(seen.atStart >= 200 && seen.atKill - seen.atStart >= 150 && seen.atEnd >= 150, JSON.stringify(seen));
    // A tick (10 ms) either way: the kernel rounds a dead process's time once more when its parent reaps it.
    const want = seen.atKill - seen.atStart + seen.atEnd;
    assert.ok(Math.abs(row.cpu.neo4j - want) <= 20, `Neo4j ${row.cpu.neo4j} ms, want ${want} (old life's share + new life)`);
    assert.ok(row.cpu.children <= 20, `the reaped old life is not a child's CPU too: ${row.cpu.children} ms (its whole life ${seen.atKill})`);
  });
});
