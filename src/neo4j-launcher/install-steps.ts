/**
 * What `dxgraph neo4j install` and setup's install step (install-main.ts) both do: assemble the
 * jars, then make the class archive (train-class-archive.ts) unless asked not to. Returns the
 * lines to print; a failed archive is a warning line, never a failed install.
 */
import type { Neo4jLauncher } from './launcher.js';
import { makeClassArchive } from './train-class-archive.js';
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
  // New jars invalidate an archive made from the old ones.
  const archive = await makeClassArchive(launcher.settings, { force: !res.skipped });
  if (!archive.ok) warnings.push(`no Neo4j class archive (${archive.error}); Neo4j starts without it, only slower`);
  else if (archive.value.made) lines.push(`Neo4j class archive made in ${(archive.value.ms / 1000).toFixed(0)} s (${archive.value.path})`);
  else lines.push(`Neo4j class archive present (${archive.value.path})`);
  return { lines, warnings };
}
