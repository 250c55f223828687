/**
 * Pinned Maven Central coordinates of the Neo4j we assemble. 5.26 is the LTS line and
 * runs on Java 17 or 21 (2025.x needs 21+, which the machine may not have).
 * The Browser is published separately; 5.24.0 is its newest release on Maven Central.
 */
export const NEO4J_VERSION = '5.26.30';
export const BROWSER_VERSION = '5.24.0';

/** Main class in org.neo4j:neo4j (verified by listing the 5.26 jar: no Neo4jCommunity there). */
export const ENTRY_POINT = 'org.neo4j.server.CommunityEntryPoint';
/** neo4j-admin's main class, used for `dbms set-initial-password`. */
export const ADMIN_TOOL = 'org.neo4j.cli.AdminTool';

export const SUPPORTED_JAVA_MAJORS = [17, 21] as const;
