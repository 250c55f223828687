export { Neo4jLauncher, type Neo4jStatus, type StartResult } from './launcher.js';
export { launcherSettings, boltUri, browserUrl, type LauncherSettings } from './settings.js';
export { makeLayout, defaultHome, PROJECT_ROOT, type Neo4jLayout } from './layout.js';
export { freePort, isPortFree } from './ports.js';
export { NEO4J_VERSION, BROWSER_VERSION } from './versions.js';
