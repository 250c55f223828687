import type { Command } from 'commander';
import { RANKER_NAMES } from '../followups/ranker.js';

/**
 * `dxgraph eval --test <source spec>`: the evaluation harness (issue 8, DESIGN.md §5)
 * against the current build, through the same query service and sessions as the server.
 * Flags and help here; what it runs (eval-run.ts) is imported when the command runs (issue 49).
 */
export interface EvalFlags {
  test: string;
  mapping?: string;
  queryFile?: string;
  protocol: string;
  questions: string;
  maskRates: string;
  limit?: string;
  seed?: string;
  testFraction?: string;
  ranker?: string;
  confidence?: string;
  input: string;
  reasoner: string;
  strict?: boolean;
  allowContentDuplicates?: boolean;
  json?: string;
  report?: string;
}

export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description('evaluate the current build on held-out patients (MedRAG levels, interactive and masking protocols)')
    .requiredOption('--test <spec>', "test patients: ddxplus:DIR | csv:PATH | jsonl:PATH | postgres:URL | omop:URL | fhir:DIR (as build --source); the build's own source: its held-out part")
    .option('--mapping <file>', 'mapping file (JSON) for csv, jsonl and postgres sources')
    .option('--query-file <file>', 'SQL query yielding the rows (postgres)')
    .option('--protocol <list>', 'comma list of full | interactive | masking', 'full')
    .option('--questions <list>', 'question counts for the interactive / masking curves', '0,1,3,5,10,20')
    .option('--mask-rates <list>', 'shares of findings masked (masking protocol)', '0,0.33,0.66,1')
    .option('--limit <n>', 'evaluate a seeded sample of n test patients')
    .option('--test-fraction <x>', "evaluate the held-out part of this split of the test source (default: the build's own --test-fraction/--seed when the test source is the build's source)")
    .option('--seed <n>', 'seed of that split (with --test-fraction) and of the --limit sample (default 1)')
    .option('--ranker <name>', `follow-up ranker: ${RANKER_NAMES.join(' | ')} (default: DXGRAPH_FOLLOWUP_RANKER, as the server)`)
    .option('--confidence <p>', 'top probability counted as a confident answer (default: DXGRAPH_STOP_CONFIDENCE, as the server)')
    .option('--input <mode>', 'full protocol request: findings (structured, coded) | text (rendered record)', 'findings')
    .option('--reasoner <name>', 'auto | evidence | llm', 'auto')
    .option('--strict', 'stop at the first malformed test row')
    .option('--allow-content-duplicates', 'accept test patients identical in content to indexed ones (ids must still differ)')
    .option('--json <file>', 'write the metrics as JSON (docs/eval.md)')
    .option('--report <file>', 'write the HTML report')
    .action(async (o: EvalFlags) => (await import('./eval-run.js')).runEvalCommand(o));
}
