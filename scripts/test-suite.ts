/**
 * `npm run test:unit` / `npm run test:int`: mocha over the suite's files, the slowest first
 * (test/<suite>/slowest-first.json, measured with `npm run test:times`), then the others in
 * name order. Mocha's parallel mode hands files to its two workers in the order it is given
 * them, so a long file handed out last would run alone on one core at the end (issue 49:
 * longest first keeps both workers busy to the end). Files named on the command line run
 * instead of the suite (`npm run test:int -- test/int/faults.test.ts`); other arguments go to
 * mocha as they are.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runTempDir } from './lib/run-temp-dir.js';

const SUITES = ['unit', 'int'] as const;
// In the transpiled tree `npm test` runs in (scripts/lib/transpiled-tree.ts) the test files are
// `.test.js` beside their `.test.ts`; from the sources they are the `.test.ts`.
const EXT = import.meta.url.endsWith('.ts') ? '.test.ts' : '.test.js';
type Suite = (typeof SUITES)[number];

const [suite, ...rest] = process.argv.slice(2);
if (!(SUITES as readonly string[]).includes(suite ?? '')) {
  process.stderr.write(`usage: tsx scripts/test-suite.ts unit|int [mocha args or test files]\n`);
  process.exit(2);
}

/** The suite's test files: the listed slowest first (in the list's order), then the others by name. */
function orderedFiles(s: Suite): string[] {
  const dir = join('test', s);
  const all = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(EXT))
    .map((f) => join(dir, f))
    .sort();
  const listed = (JSON.parse(readFileSync(join(dir, 'slowest-first.json'), 'utf8')) as { files: string[] }).files.map((f) => join(dir, f.replace(/\.test\.ts$/, EXT)));
  const present = new Set(all);
  const first = listed.filter((f) => present.has(f));
  const firstSet = new Set(first);
  return [...first, ...all.filter((f) => !firstSet.has(f))];
}

const isFile = (a: string) => a.endsWith('.test.ts') || a.endsWith('.test.js');
const named = rest.filter(isFile);
const args = rest.filter((a) => !isFile(a));
const files = named.length ? named : orderedFiles(suite as Suite);
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
// Every temporary file the suite's tests and their children make goes under one directory of
// this run, removed when it ends: tests that forget theirs no longer fill the machine's /tmp.
const tmp = runTempDir(`${suite}`);
const child = spawn(process.execPath, [mocha, '--config', `.mocharc.${suite}.json`, ...args, ...files], { stdio: 'inherit', env: { ...process.env, TMPDIR: tmp.path } });
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
child.once('exit', (code, signal) => {
  tmp.remove();
  process.exit(code ?? (signal ? 128 : 1));
});
