import { createProgress } from '../../kg-build/progress.js';
import { formatCalibration, runCalibration } from '../calibration/run-calibration.js';
import { readTextCases, type TextCase } from '../calibration/text-cases.js';
import type { Config } from '../config.js';
import type { NormalizedRecord } from '../domain/record.js';
import { InputError } from '../errors.js';
import { loadTestSet } from '../eval/test-set.js';
import { describeSourceSpec, openSource, parseSourceSpec } from '../sources/source-spec.js';
import type { CalibrateFlags } from './calibrate-command.js';

/**
 * What `dxgraph calibrate` runs, and `dxgraph build --calibrate-*` after its build (flags and
 * help: calibrate-command.ts). Loaded only when one of them runs (issue 49).
 */
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
