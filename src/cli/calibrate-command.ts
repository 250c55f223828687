import type { Command } from 'commander';

/**
 * `dxgraph calibrate --held-out <spec> [--text-cases a.jsonl,b.jsonl]`: fits the evidence
 * reasoner's posterior calibration (src/calibration) on cases the current build never saw
 * and stores it with the build (calibration.json, named in manifest.json). `dxgraph build
 * --calibrate-held-out / --calibrate-text-cases` runs the same step right after a build.
 * The step itself (calibrate-run.ts) is imported when the command runs (issue 49).
 */
export interface CalibrateFlags {
  heldOut?: string;
  mapping?: string;
  queryFile?: string;
  textCases?: string;
  limit?: string;
  seed: string;
  allowContentDuplicates?: boolean;
}

export function calibrateOptions(cmd: Command, prefix = ''): Command {
  const f = (name: string) => `--${prefix}${name}`;
  return cmd
    .option(`${f('held-out')} <spec>`, 'held-out patients never in the build (e.g. ddxplus:DIR of a validate split), as build --source')
    .option(`${f('text-cases')} <list>`, 'comma list of JSON Lines files of labelled free text ({"text", "condition"}; e.g. datasets/vignettes/cal.jsonl)');
}

export function registerCalibrateCommand(program: Command): void {
  calibrateOptions(program.command('calibrate').description("fit the evidence reasoner's posterior calibration on held-out cases and store it with the current build"))
    .option('--mapping <file>', 'mapping file (JSON) for a csv, jsonl or postgres --held-out source')
    .option('--query-file <file>', 'SQL query yielding the rows (postgres)')
    .option('--limit <n>', 'use a seeded sample of n held-out patients')
    .option('--seed <n>', 'seed of the --limit sample', '1')
    .option('--allow-content-duplicates', 'accept held-out patients identical in content to indexed ones (ids must still differ)')
    .action(async (o: CalibrateFlags) => {
      const [{ calibrateFromFlags }, { loadConfig }] = await Promise.all([import('./calibrate-run.js'), import('../config.js')]);
      await calibrateFromFlags(loadConfig(), o);
    });
}
