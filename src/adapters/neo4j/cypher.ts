import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { ArtifactError } from '../../errors.js';

/**
 * Named Cypher lives in `cypher/<name>.cypher` (e.g. `build/merge-diseases`). Values are
 * always parameters. A file may hold several statements separated by `;` at line end
 * (schema files); `//` comment lines are stripped.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'cypher');
const cache = new Map<string, string[]>();

export function cypherPath(name: string): string {
  return join(ROOT, `${name}.cypher`);
}

export function loadStatements(name: string): string[] {
  const hit = cache.get(name);
  if (hit) return hit;
  const path = cypherPath(name);
  if (!existsSync(path)) throw new ArtifactError(path, `named Cypher "${name}" not found at ${path}`);
  const text = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => !l.trim().startsWith('//'))
    .join('\n');
  const statements = text
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
  cache.set(name, statements);
  return statements;
}

/** A single named statement. */
export function cypher(name: string): string {
  const s = loadStatements(name);
  if (s.length !== 1) throw new ArtifactError(cypherPath(name), `named Cypher "${name}" holds ${s.length} statements, expected 1`);
  return s[0]!;
}
