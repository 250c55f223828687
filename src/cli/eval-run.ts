import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createProgress } from '../../kg-build/progress.js';
import { loadConfig } from '../config.js';
import { InputError } from '../errors.js';
import { runEval, PROTOCOLS, type EvalParams, type Protocol } from '../eval/run-eval.js';
import { renderHtmlReport } from '../eval/report-html.js';
import { formatSummary } from '../eval/summary-text.js';
import { readEvalInput } from '../eval/eval-input.js';
import { openEvalTarget } from '../eval/wiring.js';
import { ddxplusAnswerTypes } from '../followups/ddxplus-hints.js';
import { RANKER_NAMES, type RankerName } from '../followups/ranker.js';
import { createLogger } from '../logger.js';
import { loadDdxplusDictionary } from '../sources/ddxplus/dictionary.js';
import { describeSourceSpec, parseSourceSpec } from '../sources/source-spec.js';
import type { EvalFlags } from './eval-command.js';

/**
 * What `dxgraph eval` runs (flags and help: eval-command.ts), loaded only when it runs (issue 49):
 * the evaluation harness (issue 8, DESIGN.md §5) against the current build, through the same
 * query service and sessions as the server.
 */

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

export async function runEvalCommand(o: EvalFlags): Promise<void> {
  const config = loadConfig();
  const params = paramsFromEvalFlags(o, { ranker: config.sessions?.ranker ?? 'information-gain', confidence: config.sessions?.stopConfidence ?? 0.9 });
  const split = splitFromEvalFlags(o);
  const spec = parseSourceSpec(o.test, { mapping: o.mapping ?? null, queryFile: o.queryFile ?? null });
  params.testSource = describeSourceSpec(spec);
  // A DDXPlus record lists every evidence its patient has; other sources list what was recorded.
  params.world = spec.kind === 'ddxplus' ? 'closed' : 'open';
  const logger = createLogger({ level: config.logLevel });
  // The test records and the leakage check first: a refused evaluation opens nothing (eval-input.ts).
  const input = await readEvalInput(spec, { strict: o.strict === true, limit: params.limit, seed: params.seed, dataDir: config.dataDir, split, allowContentDuplicates: params.allowContentDuplicates, description: params.testSource });
  // DDXPlus declares each question's answer type; other sources let the catalogue infer it.
  const hints = spec.kind === 'ddxplus' ? ddxplusAnswerTypes((await loadDdxplusDictionary(spec.dir)).evidences) : null;
  const target = await openEvalTarget({ config, logger, hints, confidence: params.confidence, buildId: input.manifest.buildId });
  try {
    const { test, leakage } = input;
    const { report } = await runEval({ query: target.query, sessions: target.sessions, progress: createProgress() }, test.records, params, { heldOut: test.heldOut, testSource: test.testSource, leakage });
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
