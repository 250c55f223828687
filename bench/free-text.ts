/**
 * Free-text bench (issue 17, "Measure"): the hand-written vignettes (datasets/vignettes/dev.jsonl)
 * through dxgraph (text only, as `dxgraph ask` sends it, offline) and through a TF-IDF kNN
 * baseline over the same training records, side by side: top-1/3/5 overall, by style and by tag,
 * negated findings matched as present, vignettes with no matched feature, the `insufficient`
 * flag, and match latency. `npm run bench` runs it as a phase; alone:
 *
 *   node --import tsx bench/free-text.ts                          # dedicated Neo4j, fresh build
 *   node --import tsx bench/free-text.ts --ids v001,v017 --show-misses
 *   node --import tsx bench/free-text.ts --held-out ''                # the dev set only (default: both blind sets)
 *   NEO4J_URI=bolt://127.0.0.1:7687 node --import tsx bench/free-text.ts --skip-build --data-dir .dxgraph-bench/free-text
 *
 * Without --neo4j-uri / NEO4J_URI it starts its own Neo4j (free ports, deleted afterwards). With
 * one, that server's database is WIPED and rebuilt, unless --skip-build (then the KG and the data
 * dir's artifacts already there are used as they are).
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { InputError } from '../src/errors.js';
import { runFreeText } from './lib/free-text-run.js';
import { LABELLED_VIGNETTE_SETS } from './lib/free-text-set.js';
import { formatFreeText, formatMisses, freeTextTargets } from './lib/free-text-table.js';
import { benchNeo4j } from './lib/neo4j.js';

const { values: a } = parseArgs({
  options: {
    vignettes: { type: 'string', default: 'datasets/vignettes/dev.jsonl' },
    // The blind sets (never tuned on): scored in the same run, each reported apart ('' skips them).
    'held-out': { type: 'string', default: 'datasets/vignettes/test.jsonl,datasets/vignettes/test-b.jsonl,datasets/vignettes/test-c.jsonl' },
    ddxplus: { type: 'string', default: 'datasets/ddxplus' },
    ids: { type: 'string' },
    'show-misses': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    'neo4j-uri': { type: 'string' },
    'data-dir': { type: 'string', default: '.dxgraph-bench/free-text' },
    seed: { type: 'string', default: '1' },
    // 0: every shipped record builds the KG and the baseline (the issue's "same 1,567 shipped
    // patients"); the vignettes are not DDXPlus records, so no split is needed to keep them unseen.
    'test-fraction': { type: 'string', default: '0' },
    k: { type: 'string', default: '10' },
    llm: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    json: { type: 'string' },
    // Issue 26: the sets the posterior calibration is fitted on after the accuracy runs ('' skips it). Never a blind set.
    // A second blind pool without these conditions, reported beside the goals (never judged): the
    // two whose DDXPlus patients look nothing like the textbook disease the vignettes describe
    // (acute Chagas without travel; sarcoidosis without skin lesions), measured on the dev sets
    // to hold 22 of the 37 truths ranked below 5th (docs/free-text.md, session 22). '' skips it.
    'calibration-without': { type: 'string', default: 'Chagas,Sarcoidosis' },
    // Every labelled set but the blind ones (878 cases): out of set on the dev sets, a fit on the
    // other five beat one on cal.jsonl alone (pooled ECE 0.065 → 0.028, log-loss 0.754 → 0.751;
    // bench/calibration-crossfit.ts --baseline datasets/vignettes/cal.jsonl, docs/free-text.md).
    // A KG that learnt some of these sets as notes must be calibrated on the others (bench/ablation.sh).
    'calibrate-on': { type: 'string', default: LABELLED_VIGNETTE_SETS.join(',') },
  },
});
const log = (s: string) => process.stderr.write(`[free-text] ${s}\n`);
const num = (flag: string, v: string, integer: boolean): number => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) throw new InputError(`--${flag} must be a${integer ? 'n integer' : ' number'}, got '${v}'`, { field: flag });
  return n;
};

const ids = a.ids === undefined ? null : a.ids.split(',').map((s) => s.trim()).filter(Boolean);
if (ids !== null && ids.length === 0) throw new InputError('--ids: give at least one vignette id (v001,v002)', { field: 'ids' });
const givenUri = a['neo4j-uri'] ?? process.env.NEO4J_URI ?? null;
if (a['skip-build'] && givenUri === null) throw new InputError('--skip-build needs a Neo4j that holds the KG (--neo4j-uri or NEO4J_URI)', { field: 'skip-build' });
const base = loadConfig();
const neo = await benchNeo4j({ uri: givenUri });
log(neo.dedicated ? `neo4j ${neo.uri} (dedicated, started in ${(neo.startMs / 1000).toFixed(1)} s)` : `neo4j ${neo.uri}${a['skip-build'] ? ' (KG used as is)' : ' (given: its database is WIPED and rebuilt)'}`);
try {
  const config = {
    ...base,
    neo4j: { ...base.neo4j, uri: neo.uri, ...(neo.dedicated ? { password: '' } : {}) },
    dataDir: resolve(a['data-dir']!),
    // Offline unless asked: the figures are for deployments without an LLM.
    llm: { ...base.llm, enabled: a.llm! && base.llm.enabled },
  };
  const report = await runFreeText({
    config,
    vignettesPath: a.vignettes!,
    // --ids names dev-set cases: a selection run skips the held-out sets.
    heldOutPaths: ids === null ? a['held-out']!.split(',').map((p) => p.trim()).filter(Boolean) : [],
    ddxplusDir: a.ddxplus!,
    ids,
    build: !a['skip-build'],
    // --test-fraction 0: build from every shipped record (the vignettes are not DDXPlus records, so nothing leaks).
    split: Number(a['test-fraction']) === 0 ? null : { seed: num('seed', a.seed!, true), testFraction: num('test-fraction', a['test-fraction']!, false) },
    k: num('k', a.k!, true),
    log,
    calibrateOn: ids === null ? a['calibrate-on']!.split(',').map((p) => p.trim()).filter(Boolean) : [],
    calibrationWithout: a['calibration-without']!.split(',').map((p) => p.trim()).filter(Boolean),
  });
  if (!a.quiet) {
    if (a['show-misses']) process.stdout.write(`${formatMisses(report.cases)}\n\n`);
    process.stdout.write(`${formatFreeText(report)}\n\ntargets (issue 17):\n`);
    for (const t of freeTextTargets(report)) process.stdout.write(`  ${t.met === null ? '·' : t.met ? '✓' : '✗'} ${t.name.padEnd(34)} ${t.target.padEnd(14)} ${t.measured}\n`);
  }
  if (a.json) await writeFile(a.json, JSON.stringify(report, null, 2));
} finally {
  await neo.stop();
}
