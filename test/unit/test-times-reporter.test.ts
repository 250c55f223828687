import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { transpiledBeside } from '../support/ts-entry.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const MOCHA = join(ROOT, 'node_modules/mocha/bin/mocha.js');
const REPORTER_TS = join(ROOT, 'test/support/file-times-reporter.cts');
// The transpiled reporter where there is one (the tree npm test runs in): mocha needs no loader hook for it.
const REPORTER = transpiledBeside(REPORTER_TS);
const FILE_TIMES_TS = join(ROOT, 'test/support/file-times.ts');

/** Busy until this process has used `ms` of CPU (not wall: the box may be loaded). */
const burn = (ms: number) => `{ const t0 = process.cpuUsage(); while (process.cpuUsage(t0).user + process.cpuUsage(t0).system < ${ms * 1000}); }`;

/** The per-file times reporter (issue 49) on two spec files written here: one slow, one quick. */
describe('file-times reporter: time per test file, slowest first', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dx-times-'));
    const spec = (ms: number, tests: number) =>
      `describe('s', function () { before((done) => setTimeout(done, ${ms}));\n` +
      Array.from({ length: tests }, (_, i) => `  it('t${i}', () => {});`).join('\n') +
      `\n});\ndescribe('second top-level suite', () => { it('u', () => {}); });\n`;
    writeFileSync(join(dir, 'quick.spec.cjs'), spec(10, 1));
    writeFileSync(join(dir, 'slow.spec.cjs'), spec(600, 3));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every file with its tests and time, slowest first, and prints the table', async () => {
    const out = join(dir, 'times.json');
    const env = { ...process.env, DXGRAPH_TEST_TIMES_OUT: out, DXGRAPH_TEST_TIMES_TOP: '5' };
    const files = [join(dir, 'quick.spec.cjs'), join(dir, 'slow.spec.cjs')];
    const { stdout } = await run(process.execPath, [...(REPORTER ? [] : ['--import', 'tsx']), MOCHA, '--no-config', '--reporter', REPORTER ?? REPORTER_TS, ...files], { cwd: ROOT, env });
    const rows = JSON.parse(readFileSync(out, 'utf8')) as { file: string; ms: number; tests: number }[];
    assert.deepEqual(rows.map((r) => [basename(r.file), r.tests]), [['slow.spec.cjs', 4], ['quick.spec.cjs', 2]], 'both top-level suites of a file summed');
    assert.ok(rows[0]!.ms >= 600, `the slow file's before hook counted: ${rows[0]!.ms} ms`);
    assert.ok(rows[1]!.ms < rows[0]!.ms);
    assert.match(stdout, /Time per file, slowest first \(2 files[^\n]*\n\s+[\d.]+ s\s+4 tests\s+\S*slow\.spec\.cjs\n\s+[\d.]+ s\s+2 tests\s+\S*quick\.spec\.cjs/);
  });
});

/**
 * In parallel workers each file is charged its CPU (test/support/file-times.ts): the worker's own,
 * its reaped children's and the worker's test Neo4j's, played here by a process that burns CPU
 * beside the run (not a child of the worker, like the detached JVM, so only its /proc counts).
 */
describe('file-times reporter: CPU per file from the parallel workers', function () {
  this.timeout(60_000);
  let dir: string;
  let server: ChildProcess;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dx-times-cpu-'));
    // Stops by itself after a minute if the test is killed before its after hook.
    server = spawn(process.execPath, ['-e', `setTimeout(() => process.exit(0), 60000); setInterval(() => ${burn(40)}, 50);`], { stdio: 'ignore' });
    const hooks = `import { fileDone, fileStarted } from ${JSON.stringify(transpiledBeside(FILE_TIMES_TS) ?? FILE_TIMES_TS)};\n` +
      `export const mochaHooks = { beforeAll() { fileStarted({ neo4jPid: Number(process.env.FAKE_NEO4J_PID) }); }, afterAll() { fileDone(this.test.parent); } };\n`;
    writeFileSync(join(dir, 'hooks.mjs'), hooks);
    // The heavy file: 300 ms of its worker's CPU, a child that uses 300 ms and is reaped, and
    // waits until the "server" has used 300 ms more.
    const serverCpu = `(() => { const f = require('node:fs').readFileSync('/proc/' + process.env.FAKE_NEO4J_PID + '/stat', 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; })`;
    writeFileSync(join(dir, 'heavy.spec.cjs'),
      `describe('heavy', function () { this.timeout(30000); before(async () => {\n` +
      `  ${burn(300)}\n` +
      `  require('node:child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(burn(300))}]);\n` +
      `  const cpu = ${serverCpu}; const s0 = cpu(); while (cpu() - s0 < 300) await new Promise((r) => setTimeout(r, 20));\n` +
      `}); it('t', () => {}); });\n`);
    writeFileSync(join(dir, 'light.spec.cjs'), `describe('light', () => { it('t', () => {}); });\n`);
  });
  after(() => {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('charges a file its worker, children and Neo4j CPU, and prints them beside the wall time', async () => {
    const out = join(dir, 'times.json');
    const env = { ...process.env, DXGRAPH_TEST_TIMES_OUT: out, DXGRAPH_TEST_TIMES_TOP: '5', FAKE_NEO4J_PID: String(server.pid) };
    const files = [join(dir, 'heavy.spec.cjs'), join(dir, 'light.spec.cjs')];
    const args = ['--no-config', '--parallel', '--jobs', '2', '--require', join(dir, 'hooks.mjs'), '--reporter', REPORTER ?? REPORTER_TS, ...files];
    const { stdout } = await run(process.execPath, [...(REPORTER ? [] : ['--import', 'tsx']), MOCHA, ...args], { cwd: ROOT, env });
    const rows = JSON.parse(readFileSync(out, 'utf8')) as { file: string; ms: number; tests: number; cpu?: { worker: number; children: number; neo4j: number } }[];
    const heavy = rows.find((r) => basename(r.file) === 'heavy.spec.cjs')!;
    const light = rows.find((r) => basename(r.file) === 'light.spec.cjs')!;
    assert.ok(heavy.cpu && light.cpu, 'both files measured');
    // /proc counts in 10 ms ticks, a tick's rounding either way.
    assert.ok(heavy.cpu.worker >= 280, `the worker's own CPU: ${heavy.cpu.worker} ms`);
    assert.ok(heavy.cpu.children >= 280, `the reaped child's CPU: ${heavy.cpu.children} ms`);
    assert.ok(heavy.cpu.neo4j >= 280, `the server's CPU: ${heavy.cpu.neo4j} ms`);
    assert.ok(light.cpu.children < 280, `no child in the light file: ${light.cpu.children} ms`);
    assert.ok(light.cpu.worker < heavy.cpu.worker);
    assert.match(stdout, /CPU [\d.]+ s = worker [\d.]+ \+ children [\d.]+ \+ Neo4j [\d.]+ s/);
    const line = stdout.split('\n').find((l) => l.includes('heavy.spec.cjs'))!;
    const [wall, tests, total, worker, children, neo4j] = line.trim().split(/\s+/).map(Number);
    assert.deepEqual([tests, worker, children, neo4j], [1, heavy.cpu.worker, heavy.cpu.children, heavy.cpu.neo4j].map((v, i) => (i === 0 ? v : Number((v / 1000).toFixed(1)))));
    assert.equal(total, Number(((heavy.cpu.worker + heavy.cpu.children + heavy.cpu.neo4j) / 1000).toFixed(1)));
    assert.equal(wall, Number((heavy.ms / 1000).toFixed(1)));
  });
});
