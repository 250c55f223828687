/**
 * `dxgraph neo4j install` without loading the whole CLI (which imports every pipeline
 * and takes seconds to start): scripts/setup.sh runs this so a second setup is fast.
 * Usage: node --import tsx src/neo4j-launcher/install-main.ts [--force]
 */
import { DxError } from '../errors.js';
import { Neo4jLauncher } from './launcher.js';
import { launcherSettings } from './settings.js';
import { NEO4J_VERSION } from './versions.js';

try {
  const launcher = new Neo4jLauncher(launcherSettings());
  const res = launcher.install({ force: process.argv.includes('--force') });
  const home = launcher.settings.layout.home;
  process.stdout.write(`Neo4j ${NEO4J_VERSION} ${res.skipped ? 'already assembled' : 'assembled'} in ${home} (${res.jars} jars)\n`);
} catch (e) {
  process.stderr.write(`dxgraph: ${e instanceof DxError ? e.message : String((e as Error)?.stack ?? e)}\n`);
  process.exit(1);
}
