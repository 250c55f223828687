import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

// Resolved once, at module scope: under mocha's tsx loader, import.meta inside a function had no
// `resolve` (the worker start failed there).
const TSX_API = import.meta.resolve('tsx/esm/api');

/**
 * A worker thread running a TypeScript module, started like the CLI (bin/dxgraph.js): tsx's
 * loader is registered first, then the entry is imported. `entry` is the module's URL
 * (`new URL('./x-worker.ts', import.meta.url)`). Used by the diagnose pool and the build's
 * off-thread embedding. Where the entry has been transpiled beside its source (the tree `npm test`
 * runs in, scripts/lib/transpiled-tree.ts), the JavaScript is started without the loader.
 */
export function tsWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const js = new URL(entry.href.replace(/\.ts$/, '.js'));
  if (js.href !== entry.href && existsSync(fileURLToPath(js))) return new Worker(js, options);
  const boot = `import(${JSON.stringify(TSX_API)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
