/**
 * `dxgraph neo4j install` without loading the whole CLI (which imports every pipeline
 * and takes seconds to start): scripts/setup.sh runs this so a second setup is fast.
 * Then the class archive that makes every later start cheaper (train-class-archive.ts).
 * Usage: node --import tsx src/neo4j-launcher/install-main.ts [--force] [--no-class-archive]
 */
import { DxError } from '../errors.js';
import { Neo4jLauncher } from './launcher.js';
import { launcherSettings } from './settings.js';
import { NEO4J_VERSION } from './versions.js';
import { makeClassArchive } from './train-class-archive.js';

try {
  const launcher = new Neo4jLauncher(launcherSettings());
  const res = launcher.install({ force: process.argv.includes('--force') });
  const home = launcher.settings.layout.home;
  process.stdout.write(`Neo4j ${NEO4J_VERSION} ${res.skipped ? 'already assembled' : 'assembled'} in ${home} (${res.jars} jars)\n`);
  if (!process.argv.includes('--no-class-archive')) {
    // New jars invalidate an archive made from the old ones.
    const archive = await makeClassArchive(launcher.settings, { force: !res.skipped });
    if (!archive.ok) process.stderr.write(`dxgraph: warning: no Neo4j class archive (${archive.error}); Neo4j starts without it, only slower\n`);
    else if (archive.value.made) process.stdout.write(`Neo4j class archive made in ${(archive.value.ms / 1000).toFixed(0)} s (${archive.value.path})\n`);
    else process.stdout.write(`Neo4j class archive present (${archive.value.path})\n`);
  }
} catch (e) {
  process.stderr.write(`dxgraph: ${e instanceof DxError ? e.message : String((e as Error)?.stack ?? e)}\n`);
  process.exit(1);
}
