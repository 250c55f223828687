import type { Command } from 'commander';
import { InputError } from '../errors.js';

/**
 * `dxgraph serve [--port] [--host]`: flags and help; the server itself (serve-run.ts) is
 * imported when the command runs (issue 49).
 */
function port(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n > 65535) throw new InputError(`--port must be an integer 0-65535, got '${v}'`, { field: 'port' });
  return n;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the diagnosis HTTP API (binds 127.0.0.1 unless --host / HOST says otherwise)')
    .option('--port <n>', 'port to listen on (default PORT or 8080; 0 picks a free one)', port)
    .option('--host <addr>', 'address to bind (default HOST or 127.0.0.1; non-loopback needs an API key)')
    .action(async (o: { port?: number; host?: string }) => (await import('./serve-run.js')).runServe(o));
}
