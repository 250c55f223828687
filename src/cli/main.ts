import { Command } from 'commander';
import { DxError } from '../errors.js';
import { registerNeo4jCommand } from './neo4j-command.js';
import { registerSourceCommands } from './source-commands.js';
import { registerBuildCommand } from './build-command.js';
import { registerQueryCommands } from './query-commands.js';
import { registerServeCommand } from './serve-command.js';
import { registerEvalCommand } from './eval-command.js';
import { registerCalibrateCommand } from './calibrate-command.js';

const program = new Command('dxgraph')
  .description('Knowledge-graph RAG server for differential diagnosis')
  .showHelpAfterError()
  .exitOverride();

// A reader that closes early (`dxgraph neo4j status | head -1`) is not an error: stop quietly,
// as Unix tools do, instead of dying on an unhandled EPIPE with a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

registerNeo4jCommand(program);
registerSourceCommands(program);
registerBuildCommand(program);
registerQueryCommands(program);
registerServeCommand(program);
registerEvalCommand(program);
registerCalibrateCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  const code = (e as { code?: string }).code ?? '';
  if (code.startsWith('commander.')) {
    // commander already printed its message (help, version, unknown option)
    process.exit(code === 'commander.helpDisplayed' || code === 'commander.version' ? 0 : 2);
  }
  // Expected failures: one line, no stack trace. Bugs: the stack, to be reported.
  if (e instanceof DxError) {
    process.stderr.write(`dxgraph: ${e.message}\n`);
    process.exit(e.code === 'INPUT' || e.code === 'CONFIG' ? 2 : 1);
  }
  process.stderr.write(`dxgraph: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(1);
}
