import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/dxgraph.js', import.meta.url));

/** A real `dxgraph serve` child process on port 0, its URL read from its stdout. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stderr so far (the log). */
  stderr: () => string;
  /** SIGTERM, then its exit code once it has stopped. */
  stop(): Promise<number | null>;
}

export async function serveProcess(env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: { ...process.env, DXGRAPH_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const err: string[] = [];
  child.stderr!.on('data', (d: Buffer) => err.push(String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const m = /serving on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err.join('').slice(-500)}`)));
  });
  return {
    url,
    child,
    stderr: () => err.join(''),
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const done = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      child.kill('SIGTERM');
      return done;
    },
  };
}
