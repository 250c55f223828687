import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FreeTextReport } from './free-text-run.js';

/**
 * `npm run bench`'s free-text phase: bench/free-text.ts in its own process (like every bench
 * phase, so its memory is its own), quiet, its report read back from --json. With `neo4jUri`
 * (the bench's own server, after the sizes) that database is wiped and holds the vignette
 * build; without, the script starts a dedicated Neo4j of its own.
 */
const SCRIPT = fileURLToPath(new URL('../free-text.ts', import.meta.url));

export async function runFreeTextPhase(o: { neo4jUri: string | null; workDir: string }): Promise<FreeTextReport> {
  const dir = join(o.workDir, 'free-text');
  await mkdir(dir, { recursive: true });
  const out = join(dir, 'report.json');
  await rm(out, { force: true }); // never read an earlier run's figures
  const args = ['--import', 'tsx', SCRIPT, '--quiet', '--json', out, '--data-dir', join(dir, 'dxgraph'), ...(o.neo4jUri ? ['--neo4j-uri', o.neo4jUri] : [])];
  await new Promise<void>((resolve, reject) => {
    // Without a server from the bench, the script must start its own: a NEO4J_URI in the
    // environment (a developer's KG) would otherwise be wiped, which `npm run bench` never does unasked.
    const { NEO4J_URI: _ignored, ...env } = process.env;
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`free-text phase exited (code ${code}, signal ${signal})`))));
  });
  return JSON.parse(await readFile(out, 'utf8')) as FreeTextReport;
}
