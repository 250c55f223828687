import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { defaultHome, makeLayout, type Neo4jLayout } from './layout.js';

/** Everything the launcher needs, resolved from the environment once. */
export interface LauncherSettings {
  layout: Neo4jLayout;
  boltPort: number;
  httpPort: number;
  /** null = auth disabled (local dev default); set when NEO4J_PASSWORD is given. */
  auth: { user: string; password: string } | null;
  memory: { heapInitial: string; heapMax: string; pageCache: string };
  /** Extra JVM flags (NEO4J_JVM_ADDITIONAL, like neo4j.conf's server.jvm.additional), after ours. */
  jvmAdditional: string[];
  /** Extra neo4j.conf lines (NEO4J_CONF_ADDITIONAL: `setting=value` pairs), after ours. */
  confAdditional: string[];
  startTimeoutMs: number;
  stopTimeoutMs: number;
}

const port = z.coerce.number().int().min(1).max(65535);
const size = z.string().regex(/^\d+[kmg]$/i, 'must look like 512m or 1g');

const LauncherEnv = z.object({
  NEO4J_BOLT_PORT: port.default(7687),
  NEO4J_HTTP_PORT: port.default(7474),
  NEO4J_USER: z.string().min(1).default('neo4j'),
  NEO4J_PASSWORD: z.string().default(''),
  NEO4J_HEAP_MAX: size.default('1g'),
  NEO4J_PAGECACHE: size.default('512m'),
  NEO4J_JVM_ADDITIONAL: z.string().default(''),
  // Whitespace-separated `setting=value` pairs; Neo4j itself rejects an unknown setting at start.
  NEO4J_CONF_ADDITIONAL: z
    .string()
    .regex(/^\s*([a-z][a-z0-9_.]*=\S+\s*)*$/, 'must be space-separated setting=value pairs, e.g. db.tx_log.preallocate=false')
    .default(''),
  NEO4J_START_TIMEOUT_MS: z.coerce.number().int().positive().default(180_000),
});

export function launcherSettings(
  opts: { env?: NodeJS.ProcessEnv; home?: string; instanceDir?: string; boltPort?: number; httpPort?: number } = {},
): LauncherSettings {
  const env = opts.env ?? process.env;
  const present = Object.fromEntries(
    Object.keys(LauncherEnv.shape).flatMap((k) => (env[k] !== undefined && env[k] !== '' ? [[k, env[k]]] : [])),
  );
  const parsed = LauncherEnv.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`${name}: ${issue.message} (got ${JSON.stringify(env[name] ?? '')})`);
  }
  const e = parsed.data;
  if (e.NEO4J_PASSWORD && e.NEO4J_PASSWORD.length < 8) {
    // Neo4j 5 refuses shorter initial passwords (dbms.security.auth_minimum_password_length).
    throw new ConfigError('NEO4J_PASSWORD: the local Neo4j needs at least 8 characters');
  }
  if (e.NEO4J_PASSWORD && e.NEO4J_USER !== 'neo4j') {
    throw new ConfigError(`NEO4J_USER: the local Neo4j only sets the initial password of user "neo4j" (got ${JSON.stringify(e.NEO4J_USER)})`);
  }
  const boltPort = opts.boltPort ?? e.NEO4J_BOLT_PORT;
  const httpPort = opts.httpPort ?? e.NEO4J_HTTP_PORT;
  if (boltPort === httpPort) throw new ConfigError(`NEO4J_HTTP_PORT: must differ from NEO4J_BOLT_PORT (both ${boltPort})`);
  return {
    layout: makeLayout({ home: opts.home ?? defaultHome(env), instanceDir: opts.instanceDir }),
    boltPort,
    httpPort,
    auth: e.NEO4J_PASSWORD ? { user: e.NEO4J_USER, password: e.NEO4J_PASSWORD } : null,
    memory: { heapInitial: '512m', heapMax: e.NEO4J_HEAP_MAX, pageCache: e.NEO4J_PAGECACHE },
    jvmAdditional: e.NEO4J_JVM_ADDITIONAL.split(/\s+/).filter(Boolean),
    confAdditional: e.NEO4J_CONF_ADDITIONAL.split(/\s+/).filter(Boolean),
    startTimeoutMs: e.NEO4J_START_TIMEOUT_MS,
    stopTimeoutMs: 90_000,
  };
}

export function boltUri(s: LauncherSettings): string {
  return `bolt://127.0.0.1:${s.boltPort}`;
}

export function browserUrl(s: LauncherSettings): string {
  return `http://127.0.0.1:${s.httpPort}/browser/`;
}
