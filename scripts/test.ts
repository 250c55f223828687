/**
 * `npm test`: the type check, the unit tests and the integration tests (issue 49), all started
 * at once. The test suites run in a transpiled mirror of the project made for this run
 * (scripts/lib/transpiled-tree.ts: no loader hook in any test process; removed at the end);
 * the type check reads the sources and starts first, while the mirror is made. The integration
 * files wait on Neo4j, child processes and sockets much of their time, and the unit tests and
 * tsc fill those gaps on the 2 cores instead of running before them.
 * The integration output is held until the type check and the unit tests are done, then
 * streamed, so the suites' lines never mix. Stops at the first failure, as `a && b && c` did:
 * a failing type check or unit suite stops the integration tests (their Neo4j servers are
 * reaped) and the exit code is the failure's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mirrorPath, removeStaleMirrors, transpileTree } from './lib/transpiled-tree.js';

interface Run {
  name: string;
  child: ChildProcess;
  done: Promise<number>;
}

/** A command in its own process group (so it can be stopped with its children). */
function start(name: string, cmd: string[], opts: { pipe: boolean; cwd: string }): Run {
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd: opts.cwd, stdio: opts.pipe ? ['ignore', 'pipe', 'pipe'] : 'inherit', detached: true });
  const done = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
  return { name, child, done };
}

/** Collects a piped run's output until `flush`, then streams it to ours. */
function held(run: Run): { flush(): void } {
  const chunks: { to: NodeJS.WriteStream; data: Buffer }[] = [];
  let live = false;
  for (const [from, to] of [[run.child.stdout!, process.stdout], [run.child.stderr!, process.stderr]] as const) {
    from.on('data', (data: Buffer) => (live ? to.write(data) : chunks.push({ to, data })));
  }
  return {
    flush() {
      for (const c of chunks) c.to.write(c.data);
      chunks.length = 0;
      live = true;
    },
  };
}

/** The type check's niceness above the suites' (as `nice -n 10`: it yields to them when both cores are busy). */
const TYPECHECK_NICE = 10;
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
const root = resolve(import.meta.dirname, '..');
// The type check reads the sources: it starts while the tree is transpiled.
// TypeScript 7's package exports no bin path: its package.json names the launcher.
const tsPackage = createRequire(import.meta.url).resolve('typescript/package.json');
const tscBin = join(dirname(tsPackage), (JSON.parse(readFileSync(tsPackage, 'utf8')) as { bin: { tsc: string } }).bin.tsc);
const typecheck = start('typecheck', [process.execPath, tscBin, '-p', 'tsconfig.json', '--noEmit'], { pipe: true, cwd: root });
// The integration suite is the run's critical path (its files take most of the wall time); the
// type check (TypeScript 7's native compiler: ~10 s of CPU, was ~55 s with 5.9) is needed only at the end and has no time limit, so it runs at a
// lower priority and takes the cores when the integration files wait (on Neo4j, children, sockets).
if (typecheck.child.pid !== undefined) setPriority(typecheck.child.pid, Math.min(19, getPriority() + TYPECHECK_NICE));
let tscOutput = '';
typecheck.child.stdout!.on('data', (d: Buffer) => (tscOutput += String(d)));
typecheck.child.stderr!.on('data', (d: Buffer) => (tscOutput += String(d)));
removeStaleMirrors(root);
const mirror = mirrorPath(root, process.pid);
// Whatever way the run ends, the mirror goes with it (process.exit runs 'exit' listeners).
process.on('exit', () => rmSync(mirror, { recursive: true, force: true }));
let files: number;
try {
  files = await transpileTree(root, mirror);
} catch (e) {
  process.kill(-typecheck.child.pid!, 'SIGTERM');
  throw e;
}
process.stdout.write(`  transpiled ${files} files for this run (${secs()})\n`);
const suite = (name: 'unit' | 'int', pipe: boolean) => start(`test:${name}`, [process.execPath, 'scripts/test-suite.js', name], { pipe, cwd: mirror });
const int = suite('int', true);
const intOutput = held(int);
const unit = suite('unit', false);
// Ctrl-C reaches our process group only: pass it on to the suites' groups.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    for (const r of [int, typecheck, unit]) if (r.child.exitCode === null) process.kill(-r.child.pid!, sig);
  });
}

const tsc = typecheck.done.then((code) => {
  process.stdout.write(code === 0 ? `\n  typecheck: ok (${secs()})\n` : `\n  typecheck failed (${secs()}):\n${tscOutput}\n`);
  return code;
});
const [tscCode, unitCode] = await Promise.all([tsc, unit.done]);
const failed = [tscCode !== 0 ? 'typecheck' : null, unitCode !== 0 ? 'test:unit' : null].filter((x) => x !== null);
if (failed.length) {
  if (int.child.exitCode === null) {
    process.kill(-int.child.pid!, 'SIGINT');
    await int.done;
    // Its workers' Neo4j servers run detached: stop them and remove their directories.
    const { reapStaleInstances } = await import('../test/support/neo4j.js');
    await reapStaleInstances();
  }
  process.stderr.write(`npm test: ${failed.join(' and ')} failed (${secs()}); integration tests stopped\n`);
  process.exit(tscCode !== 0 ? tscCode : unitCode);
}
process.stdout.write(`  integration tests (running since the start):\n`);
intOutput.flush();
const intCode = await int.done;
process.stdout.write(`  npm test: ${intCode === 0 ? 'passed' : 'failed'} in ${secs()}\n`);
process.exit(intCode);
