import type { Command } from 'commander';
import type { Neo4jLauncher } from '../neo4j-launcher/index.js';
import { NEO4J_VERSION } from '../neo4j-launcher/versions.js';

const say = (line: string) => process.stdout.write(`${line}\n`);

/** The launcher is imported when a subcommand runs, not to print help (issue 49: CLI start-up cost). */
async function launcher(opts: { home?: string }): Promise<Neo4jLauncher> {
  const { Neo4jLauncher, launcherSettings } = await import('../neo4j-launcher/index.js');
  return new Neo4jLauncher(launcherSettings({ home: opts.home }));
}

/** `dxgraph neo4j install|start|stop|status|reset`: a local Neo4j without Docker. */
export function registerNeo4jCommand(program: Command): void {
  const neo = program
    .command('neo4j')
    .description(`local Neo4j Community ${NEO4J_VERSION} assembled from Maven Central (home: NEO4J_HOME or .neo4j/)`)
    .option('--home <dir>', 'Neo4j home (default: NEO4J_HOME or <project>/.neo4j)');

  neo
    .command('install')
    .description('assemble the Neo4j jars into the home (skipped when already there), then the class archive that speeds every start')
    .option('--force', 're-assemble even when present')
    .option('--no-class-archive', 'skip the class archive (a training start of about a minute)')
    .action(async (opts: { force?: boolean; classArchive: boolean }) => {
      const l = await launcher(neo.opts());
      const { installNeo4j } = await import('../neo4j-launcher/install-steps.js');
      const report = await installNeo4j(l, { force: opts.force === true, classArchive: opts.classArchive });
      for (const line of report.lines) say(line);
      for (const w of report.warnings) process.stderr.write(`dxgraph: warning: ${w}
`);
    });

  neo
    .command('start')
    .description('start in the background and wait until Bolt and HTTP answer')
    .action(async () => {
      const l = await launcher(neo.opts());
      if (!l.status().running) say(`starting Neo4j ${NEO4J_VERSION} (logs: ${l.settings.layout.logsDir}) ...`);
      const r = await l.start();
      say(r.alreadyRunning ? `Neo4j already running (pid ${r.pid})` : `Neo4j started (pid ${r.pid}) in ${(r.startMs / 1000).toFixed(1)} s`);
      say(`  Bolt:    ${r.boltUri}`);
      say(`  Browser: ${r.browserUrl}`);
    });

  neo
    .command('stop')
    .description('stop the server started by `start` (SIGTERM, SIGKILL after a timeout)')
    .action(async () => {
      const r = await (await launcher(neo.opts())).stop();
      say(r.wasRunning ? `Neo4j stopped (${r.how})` : 'Neo4j was not running');
    });

  neo
    .command('status')
    .description('print whether the local Neo4j runs and its addresses')
    .action(async () => {
      const s = (await launcher(neo.opts())).status();
      if (!s.assembled) say('Neo4j: not assembled (run `dxgraph neo4j install`)');
      say(s.running ? `Neo4j: running (pid ${s.pid})` : 'Neo4j: not running');
      say(`  Bolt:    ${s.boltUri}`);
      say(`  Browser: ${s.browserUrl}`);
    });

  neo
    .command('reset')
    .description('delete the local database files (server must be stopped)')
    .action(async () => {
      const l = await launcher(neo.opts());
      l.reset();
      say(`deleted ${l.settings.layout.dataDir}`);
    });
}
