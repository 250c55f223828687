/**
 * What `dxgraph neo4j install` and setup's install step (install-main.ts) both do: assemble the
 * jars, then make the class archive (train-class-archive.ts) unless asked not to, from jars made
 * unsigned first (unsign-jars.ts: the archive skips signed jars). Returns the lines to print; a
 * failed archive or unsigning is a warning line, never a failed install.
 */
import type { Neo4jLauncher } from './launcher.js';
import { makeClassArchive } from './train-class-archive.js';
import { unsignJars } from './unsign-jars.js';
import { NEO4J_VERSION } from './versions.js';

export interface InstallReport {
  lines: string[];
  warnings: string[];
}

export async function installNeo4j(launcher: Neo4jLauncher, opts: { force: boolean; classArchive: boolean }): Promise<InstallReport> {
  const res = launcher.install({ force: opts.force });
  const home = launcher.settings.layout.home;
  const lines = [`Neo4j ${NEO4J_VERSION} ${res.skipped ? 'already assembled' : 'assembled'} in ${home} (${res.jars} jars)`];
  const warnings: string[] = [];
  if (!opts.classArchive) return { lines, warnings };
  // Only for the archive's sake (a signed jar works as well, only outside it); an install made
  // before this step gets its jars unsigned by the next setup, and a new archive.
  const unsigned = unsignJars(launcher.settings.layout);
  if (!unsigned.ok) warnings.push(`the signed jars stay signed (${unsigned.error}); their classes stay out of the class archive`);
  else if (unsigned.value.length > 0) lines.push(`Neo4j jars made unsigned for the class archive: ${unsigned.value.join(', ')}`);
  // New or changed jars invalidate an archive made from the old ones.
  const archive = await makeClassArchive(launcher.settings, { force: !res.skipped || (unsigned.ok && unsigned.value.length > 0) });
  if (!archive.ok) warnings.push(`no Neo4j class archive (${archive.error}); Neo4j starts without it, only slower`);
  else if (archive.value.made) lines.push(`Neo4j class archive made in ${(archive.value.ms / 1000).toFixed(0)} s (${archive.value.path})`);
  else lines.push(`Neo4j class archive present (${archive.value.path})`);
  return { lines, warnings };
}
