import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SetupError } from '../errors.js';
import { SUPPORTED_JAVA_MAJORS } from './versions.js';

export interface JavaRuntime {
  path: string;
  major: number;
}

/** Major version from `java -version` (printed on stderr), e.g. 'openjdk version "17.0.15"'. */
export function javaMajor(javaPath: string): number | null {
  const res = spawnSync(javaPath, ['-version'], { encoding: 'utf8' });
  if (res.error || res.status !== 0) return null;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${res.stderr}${res.stdout}`);
  if (!m) return null;
  // Java 8 and older print "1.8.0"
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

function candidates(env: NodeJS.ProcessEnv): string[] {
  const list: string[] = [];
  if (env.JAVA_HOME) list.push(join(env.JAVA_HOME, 'bin', 'java'));
  list.push('java');
  const jvmRoot = '/usr/lib/jvm';
  if (existsSync(jvmRoot)) {
    for (const d of readdirSync(jvmRoot).sort()) list.push(join(jvmRoot, d, 'bin', 'java'));
  }
  return [...new Set(list)];
}

/**
 * Neo4j 5.26 runs on Java 17 or 21 only, and the machine may also carry a newer JDK
 * (Temurin 25) first on PATH, so pick the first supported one rather than `java`.
 */
export function findJava(env: NodeJS.ProcessEnv = process.env): JavaRuntime {
  const seen: string[] = [];
  for (const path of candidates(env)) {
    if (path !== 'java' && !existsSync(path)) continue;
    const major = javaMajor(path);
    if (major === null) continue;
    seen.push(`${path} (${major})`);
    if ((SUPPORTED_JAVA_MAJORS as readonly number[]).includes(major)) return { path, major };
  }
  throw new SetupError(
    `no Java ${SUPPORTED_JAVA_MAJORS.join(' or ')} found for Neo4j 5.26 (found: ${seen.join(', ') || 'none'}); ` +
      'install openjdk-17-jre-headless (npm run setup does) or set JAVA_HOME',
  );
}
