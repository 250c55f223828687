/**
 * One temporary directory per test-suite run (scripts/test-suite.ts): the suite's processes get it
 * as TMPDIR, so `os.tmpdir()` in every test, CLI child and server they start points into it, and
 * the run removes it at its end. Before it, each `npm test` left ~1,000 directories (builds, FAISS
 * indexes, LLM caches) in /tmp that tests made and did not remove; 12 GB over a day of runs here.
 * A run that was killed leaves its directory: the next run removes those whose process is gone.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pidAlive } from '../../src/util/pid-alive.js';

const PREFIX = 'dxgraph-run-tmp-';

export interface RunTempDir {
  path: string;
  remove(): void;
}

export function runTempDir(suite: string): RunTempDir {
  const base = tmpdir();
  removeStale(base);
  const path = mkdtempSync(join(base, `${PREFIX}${process.pid}-${suite}-`));
  // Traversable by other users (not listable): a test's PostgreSQL runs as `postgres` in a
  // directory of its own under this one, as it did under /tmp.
  chmodSync(path, 0o711);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Directories of runs whose process is gone (a killed run): removed. */
function removeStale(base: string): void {
  for (const name of readdirSync(base)) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) continue;
    rmSync(join(base, name), { recursive: true, force: true });
  }
}
