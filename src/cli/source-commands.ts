import type { Command } from 'commander';
import { InputError } from '../errors.js';
import type { ImportSummary } from '../sources/types.js';

/** `dxgraph import` and `dxgraph split`: flags and help; what they run (source-run.ts) is imported when they run (issue 49). */
export interface SourceFlags {
  source: string;
  mapping?: string;
  queryFile?: string;
}

function number(flag: string) {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new InputError(`--${flag} must be a number, got '${v}'`, { field: flag });
    return n;
  };
}

/** The import summary as lines: counts first, then the reasons and a few located examples. */
export function formatSummary(description: string, s: ImportSummary): string {
  const lines = [`source: ${description}`, `rows read: ${s.rowsRead}`, `records emitted: ${s.recordsEmitted}`, `skipped: ${s.skipped}`];
  for (const [reason, n] of Object.entries(s.skippedByReason)) lines.push(`  ${reason}: ${n}`);
  if (s.examples.length > 0) lines.push('first skipped rows:', ...s.examples.map((e) => `  ${e.location}: ${e.reason}`));
  // OMOP / FHIR: facts of kept records that gave no finding (unparseable value, unmapped concept...).
  const facts = s.factsSkipped;
  if (facts !== undefined) {
    lines.push(`facts without a finding: ${facts.count}`, ...Object.entries(facts.byReason).map(([reason, n]) => `  ${reason}: ${n}`));
    if (facts.examples.length > 0) lines.push('first such facts:', ...facts.examples.map((e) => `  ${e.location}: ${e.reason}`));
  }
  return `${lines.join('\n')}\n`;
}

const withSource = (c: Command): Command =>
  c
    .requiredOption('--source <spec>', 'ddxplus:DIR | csv:PATH | jsonl:PATH | postgres:URL | omop:postgres://…[?schema=S] | fhir:DIR')
    .option('--mapping <file>', 'mapping file (JSON) for csv, jsonl and postgres sources')
    .option('--query-file <file>', 'SQL query yielding the rows (postgres)');

export function registerSourceCommands(program: Command): void {
  withSource(program.command('import').description('read a source, print the import summary, optionally write normalized records'))
    .option('--strict', 'stop at the first malformed row instead of skipping and counting it')
    .option('--out <file>', 'write the normalized records as JSON Lines')
    .action(async (o: SourceFlags & { strict?: boolean; out?: string }) => (await import('./source-run.js')).runImport(o));
  withSource(program.command('split').description('deterministic patient-level train/test split, written in the input format'))
    .requiredOption('--test-fraction <x>', 'share of patients in the test part', number('test-fraction'))
    .requiredOption('--seed <n>', 'seed of the split hash', number('seed'))
    .requiredOption('--out-dir <dir>', 'writes <dir>/train and <dir>/test')
    .option('--stratify', 'give each diagnosis its share of test patients')
    .action(async (o: SourceFlags & { testFraction: number; seed: number; outDir: string; stratify?: boolean }) => (await import('./source-run.js')).runSplit(o));
}
