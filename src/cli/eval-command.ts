import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { createProgress } from '../../kg-build/progress.js';
import { loadConfig } from '../config.js';
import { InputError } from '../errors.js';
import { runEval, PROTOCOLS, type EvalParams, type Protocol } from '../eval/run-eval.js';
import { renderHtmlReport } from '../eval/report-html.js';
import { formatSummary } from '../eval/summary-text.js';
import { readTestRecords } from '../eval/test-records.js';
import { openEvalTarget } from '../eval/wiring.js';
import { ddxplusAnswerTypes } from '../followups/ddxplus-hints.js';
import { RANKER_NAMES, type RankerName } from '../followups/ranker.js';
import { createLogger } from '../logger.js';
import { loadDdxplusDictionary } from '../sources/ddxplus/dictionary.js';
import { describeSourceSpec, parseSourceSpec } from '../sources/source-spec.js';

/**
 * `dxgraph eval --test <source spec>`: the evaluation harness (issue 8, DESIGN.md §5)
 * against the current build, through the same query service and sessions as the server.
 */
interface EvalFlags {
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

function numbers(flag: string, v: string, check: (n: number) => boolean): number[] {
  const out = v.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  if (out.length === 0 || out.some((n) => !check(n))) throw new InputError(`--${flag}: bad value '${v}'`, { field: flag });
  return [...new Set(out)].sort((a, b) => a - b);
}

function oneOf<T extends string>(flag: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw new InputError(`--${flag} must be one of ${allowed.join('|')}, got '${v}'`, { field: flag });
  return v as T;
}

/** Ranker and stop confidence default to the server's session settings (config.sessions). */
export function paramsFromEvalFlags(o: EvalFlags, defaults: { ranker: RankerName; confidence: number }): EvalParams {
  const protocols = o.protocol.split(',').map((p) => oneOf<Protocol>('protocol', p.trim(), PROTOCOLS));
  const limit = o.limit === undefined ? null : Number(o.limit);
  if (limit !== null && !(Number.isInteger(limit) && limit > 0)) throw new InputError(`--limit must be a positive integer, got '${o.limit}'`, { field: 'limit' });
  const seed = o.seed === undefined ? 1 : Number(o.seed);
  if (!Number.isInteger(seed)) throw new InputError(`--seed must be an integer, got '${o.seed}'`, { field: 'seed' });
  const confidence = o.confidence === undefined ? defaults.confidence : Number(o.confidence);
  if (!(confidence > 0 && confidence <= 1)) throw new InputError(`--confidence must be in (0, 1], got '${o.confidence}'`, { field: 'confidence' });
  return {
    protocols: [...new Set(protocols)],
    questions: numbers('questions', o.questions, (n) => Number.isInteger(n) && n >= 0 && n <= 200),
    maskRates: numbers('mask-rates', o.maskRates, (n) => n >= 0 && n <= 1),
    ranker: o.ranker === undefined ? defaults.ranker : oneOf<RankerName>('ranker', o.ranker, RANKER_NAMES),
    confidence,
    input: oneOf('input', o.input, ['findings', 'text'] as const),
    options: { reasoner: oneOf('reasoner', o.reasoner, ['auto', 'evidence', 'llm'] as const) },
    seed,
    limit,
    allowContentDuplicates: o.allowContentDuplicates === true,
    testSource: '',
  };
}

/** --test-fraction / --seed naming the split to take the held-out part of (null: not given). */
export function splitFromEvalFlags(o: Pick<EvalFlags, 'testFraction' | 'seed'>): { testFraction: number | null; seed: number | null } {
  if (o.testFraction === undefined) return { testFraction: null, seed: null };
  const testFraction = Number(o.testFraction);
  if (!(testFraction > 0 && testFraction < 1)) throw new InputError(`--test-fraction must be between 0 and 1 (exclusive), got '${o.testFraction}'`, { field: 'test-fraction' });
  if (o.seed === undefined) throw new InputError('--test-fraction needs --seed (the seed of the split the build used)', { field: 'seed' });
  return { testFraction, seed: Number(o.seed) };
}

async function runEvalCommand(o: EvalFlags): Promise<void> {
  const config = loadConfig();
  const params = paramsFromEvalFlags(o, { ranker: config.sessions?.ranker ?? 'information-gain', confidence: config.sessions?.stopConfidence ?? 0.9 });
  const split = splitFromEvalFlags(o);
  const spec = parseSourceSpec(o.test, { mapping: o.mapping ?? null, queryFile: o.queryFile ?? null });
  params.testSource = describeSourceSpec(spec);
  // A DDXPlus record lists every evidence its patient has; other sources list what was recorded.
  params.world = spec.kind === 'ddxplus' ? 'closed' : 'open';
  const logger = createLogger({ level: config.logLevel });
  // DDXPlus declares each question's answer type; other sources let the catalogue infer it.
  const hints = spec.kind === 'ddxplus' ? ddxplusAnswerTypes((await loadDdxplusDictionary(spec.dir)).evidences) : null;
  const target = await openEvalTarget({ config, logger, hints, confidence: params.confidence });
  try {
    const manifest = target.query.artifacts.manifest;
    const test = await readTestRecords(spec, { strict: o.strict === true, limit: params.limit, seed: params.seed, manifest, dataDir: config.dataDir, split });
    if (test.records.length === 0) {
      const part = test.heldOut ? ` (its held-out part: ${test.heldOut.seen.test.records} of ${test.heldOut.seen.train.records + test.heldOut.seen.test.records} records)` : '';
      throw new InputError(`the test source ${params.testSource} yielded no records${part}`, { field: 'test' });
    }
    const { report } = await runEval({ query: target.query, sessions: target.sessions, progress: createProgress() }, test.records, params, { heldOut: test.heldOut, testSource: test.testSource });
    if (o.json) {
      await mkdir(dirname(o.json), { recursive: true });
      await writeFile(o.json, `${JSON.stringify(report, null, 2)}\n`);
    }
    if (o.report) {
      await mkdir(dirname(o.report), { recursive: true });
      await writeFile(o.report, renderHtmlReport(report));
    }
    process.stdout.write(formatSummary(report));
    for (const [flag, path] of [['json', o.json], ['report', o.report]] as const) if (path) process.stdout.write(`${flag}: ${path}\n`);
  } finally {
    await target.close();
  }
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
    .action(runEvalCommand);
}
