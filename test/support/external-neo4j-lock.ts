import { mkdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRunId } from './neo4j.js';

/**
 * With NEO4J_URI set, every parallel worker talks to the developer's one database, and a file
 * that wipes it would wipe another's data mid-test: files take turns, one at a time, holding a
 * lock directory (mkdir is atomic) named after the run.
 */
const lockDir = () => join(tmpdir(), `dxgraph-test-neo4j-${testRunId()}.lock`);
let held = false;

export async function holdExternalNeo4j(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lockDir());
      held = true;
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export function releaseExternalNeo4j(): void {
  if (!held) return;
  held = false;
  rmdirSync(lockDir());
}
