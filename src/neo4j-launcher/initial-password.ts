import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SetupError } from '../errors.js';
import type { LauncherSettings } from './settings.js';
import { ADMIN_TOOL } from './versions.js';

/** The system database exists once the server has started once; after that the initial password is fixed. */
export function hasSystemDatabase(s: LauncherSettings): boolean {
  return existsSync(join(s.layout.dataDir, 'databases', 'system'));
}

/**
 * `neo4j-admin dbms set-initial-password`, run from the same jars. Only effective before
 * the first start, so later password changes need `dxgraph neo4j reset`.
 */
export function setInitialPassword(javaPath: string, s: LauncherSettings, password: string): void {
  const l = s.layout;
  const res = spawnSync(javaPath, ['-cp', `${l.confDir}/*:${l.libDir}/*`, ADMIN_TOOL, 'dbms', 'set-initial-password', password], {
    encoding: 'utf8',
    env: { ...process.env, NEO4J_HOME: l.instanceDir, NEO4J_CONF: l.confDir },
  });
  if (res.error || res.status !== 0) {
    const text = `${res.stderr ?? ''}${res.stdout ?? ''}`.trim().split('\n')[0] ?? '';
    throw new SetupError(`could not set the initial Neo4j password (NEO4J_PASSWORD): ${res.error?.message ?? text}`);
  }
}
