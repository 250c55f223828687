/**
 * `dxgraph neo4j install` without loading the whole CLI: scripts/setup.sh runs this so a second
 * setup is fast. Assembles the jars, then makes the class archive that makes every later start
 * cheaper (install-steps.ts).
 * Usage: node --import tsx src/neo4j-launcher/install-main.ts [--force] [--no-class-archive]
 */
import { DxError } from '../errors.js';
import { installNeo4j } from './install-steps.js';
import { Neo4jLauncher } from './launcher.js';
import { launcherSettings } from './settings.js';

try {
  const launcher = new Neo4jLauncher(launcherSettings());
  const report = await installNeo4j(launcher, { force: process.argv.includes('--force'), classArchive: !process.argv.includes('--no-class-archive') });
  for (const line of report.lines) process.stdout.write(`${line}\n`);
  for (const w of report.warnings) process.stderr.write(`dxgraph: warning: ${w}\n`);
} catch (e) {
  process.stderr.write(`dxgraph: ${e instanceof DxError ? e.message : String((e as Error)?.stack ?? e)}\n`);
  process.exit(1);
}
