import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { NormalizedRecord } from '../../src/domain/record.js';
import type { RecordSource } from '../../src/sources/types.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Runs the real CLI (`node bin/dxgraph.js …`) from the project root; resolves with exit code and
 * output, never throws. `onStderrLine` sees each progress line as it comes (a story acting on a phase).
 */
export async function runDxgraph(args: string[], env: Record<string, string>, opts: { onStderrLine?: (line: string) => void } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const running = run('node', [join(ROOT, 'bin/dxgraph.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 32 << 20 });
    if (opts.onStderrLine) createInterface({ input: running.child.stderr! }).on('line', opts.onStderrLine);
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' };
  }
}

/** Every record of a source, closing it whatever happens. */
export async function collectRecords(src: RecordSource): Promise<NormalizedRecord[]> {
  const out: NormalizedRecord[] = [];
  try {
    for await (const r of src.records()) out.push(r);
  } finally {
    await src.close();
  }
  return out;
}
