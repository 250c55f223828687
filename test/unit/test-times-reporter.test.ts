import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
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
