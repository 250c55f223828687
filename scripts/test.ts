/**
 * `npm test`: the type check, the unit tests and the integration tests (issue 49), all started
 * at once: the integration files wait on Neo4j, child processes and sockets much of their time,
 * and the unit tests and tsc fill those gaps on the 2 cores instead of running before them.
 * The integration output is held until the type check and the unit tests are done, then
 * streamed, so the suites' lines never mix. Stops at the first failure, as `a && b && c` did:
 * a failing type check or unit suite stops the integration tests (their Neo4j servers are
 * reaped) and the exit code is the failure's.
 */
import { spawn, type ChildProcess } from 'node:child_process';

interface Run {
  name: string;
  child: ChildProcess;
  done: Promise<number>;
}

/** `npm run <script>`, in its own process group (so it can be stopped with its children). */
function npmRun(script: string, opts: { pipe: boolean }): Run {
  const child = spawn('npm', ['run', '--silent', script], { stdio: opts.pipe ? ['ignore', 'pipe', 'pipe'] : 'inherit', detached: true });
  const done = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
  return { name: script, child, done };
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

const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
const int = npmRun('test:int', { pipe: true });
const intOutput = held(int);
const typecheck = npmRun('typecheck', { pipe: true });
let tscOutput = '';
typecheck.child.stdout!.on('data', (d: Buffer) => (tscOutput += String(d)));
typecheck.child.stderr!.on('data', (d: Buffer) => (tscOutput += String(d)));
const unit = npmRun('test:unit', { pipe: false });
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
