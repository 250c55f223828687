import neo4j, { type AuthToken } from 'neo4j-driver-lite';

/**
 * The Bolt auth token: basic with a password, else `none` (a server with auth disabled, as the
 * test servers and a fresh local `dxgraph neo4j start` run). The driver's types ask every token
 * for credentials, which `none` has not: one cast here instead of at each driver.
 */
export function boltAuth(login: { user: string; password: string } | null): AuthToken {
  return login && login.password ? neo4j.auth.basic(login.user, login.password) : (neo4j.auth.none() as AuthToken);
}
