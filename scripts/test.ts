/**
 * `npm test`: the type check and the unit tests side by side (tsc is one thread, the unit
 * suite mostly one: on 2 cores together they take about the longer of the two), then the
 * integration tests, which use both cores themselves (issue 49). Stops at the first failure,
 * as `a && b && c` did; tsc's output is held until it is done so it does not cut the
 * unit tests' lines.
 */
import { spawn } from 'node:child_process';

interface Done {
  name: string;
  code: number;
  output: string;
}

function npmRun(script: string, opts: { buffer: boolean }): Promise<Done> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: opts.buffer ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += String(d)));
    child.stderr?.on('data', (d: Buffer) => (output += String(d)));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ name: script, code: code ?? (signal ? 128 : 1), output }));
  });
}

const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
const typecheck = npmRun('typecheck', { buffer: true }).then((d) => {
  process.stdout.write(d.code === 0 ? `\n  typecheck: ok (${secs()})\n` : `\n  typecheck failed (${secs()}):\n${d.output}\n`);
  return d;
});
const unit = npmRun('test:unit', { buffer: false });
const failed = (await Promise.all([typecheck, unit])).filter((d) => d.code !== 0);
if (failed.length) {
  process.stderr.write(`npm test: ${failed.map((d) => d.name).join(' and ')} failed; integration tests not run\n`);
  process.exit(failed[0]!.code);
}
const int = await npmRun('test:int', { buffer: false });
process.stdout.write(`  npm test: ${int.code === 0 ? 'passed' : 'failed'} in ${secs()}\n`);
process.exit(int.code);
