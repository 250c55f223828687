import type { Command } from 'commander';
import { createProgress } from '../../kg-build/progress.js';
import { formatCalibration, runCalibration } from '../calibration/run-calibration.js';
import { readTextCases, type TextCase } from '../calibration/text-cases.js';
import { loadConfig, type Config } from '../config.js';
import type { NormalizedRecord } from '../domain/record.js';
import { InputError } from '../errors.js';
import { loadTestSet } from '../eval/test-set.js';
import { describeSourceSpec, openSource, parseSourceSpec } from '../sources/source-spec.js';

/**
 * `dxgraph calibrate --held-out <spec> [--text-cases a.jsonl,b.jsonl]`: fits the evidence
 * reasoner's posterior calibration (src/calibration) on cases the current build never saw
 * and stores it with the build (calibration.json, named in manifest.json). `dxgraph build
 * --calibrate-held-out / --calibrate-text-cases` runs the same step right after a build.
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

export async function calibrateFromFlags(config: Config, o: CalibrateFlags): Promise<void> {
  if (!o.heldOut && !o.textCases) throw new InputError('give --held-out <source spec> and/or --text-cases <jsonl,...>', { field: 'held-out' });
  const limit = o.limit === undefined ? null : Number(o.limit);
  if (limit !== null && !(Number.isInteger(limit) && limit > 0)) throw new InputError(`--limit must be a positive integer, got '${o.limit}'`, { field: 'limit' });
  const seed = Number(o.seed);
  if (!Number.isInteger(seed)) throw new InputError(`--seed must be an integer, got '${o.seed}'`, { field: 'seed' });
  const sources: string[] = [];
  let records: NormalizedRecord[] = [];
  if (o.heldOut) {
    const spec = parseSourceSpec(o.heldOut, { mapping: o.mapping ?? null, queryFile: o.queryFile ?? null });
    sources.push(describeSourceSpec(spec));
    const source = await openSource(spec, { strict: false });
    try {
      records = await loadTestSet(source.records(), { limit, seed });
    } finally {
      await source.close();
    }
  }
  const textCases: TextCase[] = [];
  for (const path of (o.textCases ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    textCases.push(...(await readTextCases(path)));
    sources.push(`text:${path}`);
  }
  const progress = createProgress();
  progress.start('calibrate', null);
  const file = await runCalibration(config, { records, textCases, sources, allowContentDuplicates: o.allowContentDuplicates === true, onProgress: (n) => progress.update(n) }).finally(() => progress.stop());
  process.stdout.write(formatCalibration(file));
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
    .action(async (o: CalibrateFlags) => calibrateFromFlags(loadConfig(), o));
}
