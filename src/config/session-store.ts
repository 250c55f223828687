import { ConfigError } from '../errors.js';
import { SessionKey } from '../sessions/sealed-content.js';

/** In this process, or in Neo4j shared by replicas with the content sealed under `key` (docs/deployment.md). */
export type SessionStoreConfig = { kind: 'memory' } | { kind: 'neo4j'; key: SessionKey };

/**
 * DXGRAPH_SESSIONS + DXGRAPH_SESSION_KEY. The key is checked here and not by the schema so that
 * no error message ever repeats it (loadConfig's messages quote the value they reject).
 */
export function sessionStore(kind: 'memory' | 'neo4j', keyText: string | undefined): SessionStoreConfig {
  const key = keyText === undefined ? null : SessionKey.parse(keyText);
  if (keyText !== undefined && key === null) throw new ConfigError('DXGRAPH_SESSION_KEY: must be 32 random bytes as 64 hex digits or base64, e.g. from `openssl rand -hex 32` (value not shown)');
  if (kind === 'memory') return { kind };
  if (key === null) throw new ConfigError('DXGRAPH_SESSION_KEY: required with DXGRAPH_SESSIONS=neo4j (session content is stored encrypted under it); generate one with `openssl rand -hex 32`');
  return { kind, key };
}
