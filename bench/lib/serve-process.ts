/**
 * A real `dxgraph serve` process (integration tests, bench/replicas.ts), as on its own host: its own working
 * folder (cwd), port 0, configuration by environment only. Resolves once it prints its URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/neo4j-launcher/layout.js';

export interface ServeProcess {
  url: string;
  pid: number;
  /** Everything the process wrote to stderr (its JSON log) so far. */
  log(): string;
  /** SIGTERM and wait for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function startServeProcess(env: NodeJS.ProcessEnv, cwd: string): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'dxgraph.js'), 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += String(c)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += String(c);
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`serve exited early (${code}): ${stderr.slice(-800)}`)));
  });
  return {
    url,
    pid: child.pid!,
    log: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
