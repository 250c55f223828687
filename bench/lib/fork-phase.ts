import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs one bench phase in a child process (bench/lib/child.ts under tsx) and returns its
 * result. `onReady` handles the serve phase's {type: 'ready'} message (the parent drives
 * the HTTP load, then the child is told {type: 'loaded'}). A child that dies without a
 * result is an error naming its exit code.
 */
const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

export function forkPhase<T>(task: unknown, onReady?: (m: { url: string; texts: string[] }) => Promise<void>, opts: { heapMb?: number } = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = fork(CHILD, [JSON.stringify(task)], { execArgv: ['--import', 'tsx', `--max-old-space-size=${opts.heapMb ?? 4096}`], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    child.on('message', (m: { type: string; result?: T; message?: string; url?: string; texts?: string[] }) => {
      if (m.type === 'ready' && onReady) {
        onReady({ url: m.url!, texts: m.texts! }).then(
          () => child.send({ type: 'loaded' }),
          (e: unknown) => {
            settled = true;
            child.kill('SIGTERM');
            reject(e);
          },
        );
      } else if (m.type === 'result') {
        settled = true;
        resolve(m.result as T);
      } else if (m.type === 'error') {
        settled = true;
        reject(new Error(`bench phase failed: ${m.message}`));
      }
    });
    child.on('exit', (code, signal) => {
      if (!settled) reject(new Error(`bench phase exited (code ${code}, signal ${signal}) without a result`));
    });
  });
}
