/**
 * Notes-KG bench (issue 24): a KG built from notes alone (training JSONL: id, condition, text,
 * age, sex), asked with held-out notes, beside TF-IDF kNN and TF-IDF nearest centroid trained
 * on the same notes. By default in memory (the KG's knowledge alone, bench/lib/notes-kg-memory.ts);
 * with --served, built through Neo4j and FAISS and asked through the whole diagnose path, once per
 * ablation row (naive Bayes alone, + vote, + key differences, + kNN).
 *
 *   node --import tsx bench/notes-kg.ts                                   # the DDXPlus-condition vignettes
 *   node --import tsx bench/notes-kg.ts --train datasets/notes-pc/train-a.jsonl,datasets/notes-pc/train-b.jsonl --test datasets/notes-pc/test.jsonl
 *   node --import tsx bench/notes-kg.ts --served                          # dedicated Neo4j, real build and diagnose
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { asAsked, loadNotesSet as load, NOTES_CORPORA, runNotesBench } from './lib/notes-kg-run.js';
import { defaultNotePreparer } from '../src/clinical-text/prepare-note.js';
import { runServedNotes } from './lib/notes-kg-served.js';
import { formatFreeTextCalibration } from './lib/free-text-calibration.js';
import { benchNeo4j } from './lib/neo4j.js';
import type { DecomposeOptions } from '../kg-build/decompose-features.js';

const { values: a } = parseArgs({
  options: {
    train: { type: 'string', default: NOTES_CORPORA[0]!.train.join(',') },
    test: { type: 'string', default: NOTES_CORPORA[0]!.test.join(',') },
    k: { type: 'string', default: '5' },
    reasoner: { type: 'string' },
    // Build options as JSON (decompose-features' DecomposeOptions), for tuning on a dev split.
    decompose: { type: 'string' },
    served: { type: 'boolean', default: false },
    'data-dir': { type: 'string', default: '.dxgraph-bench/notes' },
    // Extra rows: reasoner settings as JSON objects separated by ';' (tuning on a dev split).
    extra: { type: 'string' },
    // With --served: fit the build's text calibration on these labelled notes (never a test set) and score the tests before and after.
    'calibrate-on': { type: 'string' },
    // With --served: every Nth training note (by position) is held out of the KG as a calibration case instead.
    'calibrate-every': { type: 'string' },
    // With --served: other sources (comma list of build --source specs) in the same KG, before the notes.
    'with-source': { type: 'string' },
    // With --served: this Neo4j instead of a dedicated one (its database is WIPED; the KG stays there afterwards).
    'neo4j-uri': { type: 'string' },
  },
});

const log = (s: string) => process.stderr.write(`[notes-kg] ${s}\n`);
const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
const loaded = await Promise.all(list(a.train!).map(load));
const every = a['calibrate-every'] ? Number(a['calibrate-every']) : 0;
if (a['calibrate-every'] && !(Number.isInteger(every) && every >= 2)) throw new Error('--calibrate-every: an integer of at least 2');
if (every && !a.served) throw new Error('--calibrate-every needs --served');
// The held-out notes are cut from the training notes by position, so the KG never sees them.
const isHeldOut = (i: number) => every > 0 && i % every === 0;
let position = 0;
const marked = loaded.map((s) => ({ ...s, notes: s.notes.map((n) => ({ n, held: isHeldOut(position++) })) }));
const train = marked.map((s) => ({ name: s.name, notes: s.notes.filter((x) => !x.held).map((x) => x.n) }));
// Held-out notes are asked as prepared notes (notes-kg-run.ts asAsked): no method reads a diagnosis section.
const prepare = await defaultNotePreparer();
const calibrationNotes = asAsked({ name: 'calibration', notes: marked.flatMap((s) => s.notes.filter((x) => x.held).map((x) => x.n)) }, prepare).notes;
const tests = await Promise.all(list(a.test!).map(load));
const k = Number(a.k);
const out = await runNotesBench({ train, tests, minPatients: k, ...(a.reasoner ? { reasoner: JSON.parse(a.reasoner) as Record<string, number> } : {}), ...(a.decompose ? { decompose: JSON.parse(a.decompose) as Partial<DecomposeOptions> } : {}) }, log);
process.stdout.write(out.table);
if (a.served) {
  const neo = await benchNeo4j({ uri: a['neo4j-uri'] ?? null });
  try {
    const base = loadConfig();
    const config = { ...base, neo4j: { ...base.neo4j, uri: neo.uri, ...(neo.dedicated ? { password: '' } : {}) }, dataDir: resolve(a['data-dir']!), llm: { ...base.llm, enabled: false } };
    const extra = (a.extra ?? '').split(';').filter((s) => s.trim()).map((s) => ({ name: s.trim(), weights: JSON.parse(s) as Record<string, number> }));
    const calibrateOn = a['calibrate-on'] ? list(a['calibrate-on']) : [];
    if (calibrationNotes.length > 0) {
      const path = resolve(a['data-dir']!, '..', 'notes-calibration.jsonl');
      await writeFile(path, calibrationNotes.map((n) => JSON.stringify({ text: n.text, condition: n.condition })).join('\n'));
      calibrateOn.push(path);
      log(`${calibrationNotes.length} training notes held out for calibration (every ${every}th)`);
    }
    const clash = calibrateOn.filter((p) => tests.some((t) => t.name === p) || train.some((t) => t.name === p));
    if (clash.length > 0) throw new Error(`--calibrate-on ${clash.join(', ')}: a training or test set cannot be calibrated on`);
    const served = await runServedNotes({ config, train, tests: tests.map((t) => asAsked(t, prepare)), minPatients: k, log, extra, calibrateOn, withSources: a['with-source'] ? list(a['with-source']) : [] });
    const pct = (x: number, n: number) => (Math.round((1000 * x) / n) / 10).toFixed(1);
    process.stdout.write(`\nablation (built through Neo4j in ${served.buildSeconds.toFixed(1)} s, whole diagnose path, top-1 / top-3):\n| setting | ${served.scores.map((s) => s.set.split('/').pop()).join(' | ')} |\n| --- |${served.scores.map(() => ' --- |').join('')}\n`);
    for (const [i, row] of served.scores[0]!.rows.entries()) process.stdout.write(`| ${row.name} | ${served.scores.map((s) => `${pct(s.rows[i]!.top1, s.n)} / ${pct(s.rows[i]!.top3, s.n)}`).join(' | ')} |\n`);
    if (served.calibration) process.stdout.write(`\n${formatFreeTextCalibration(served.calibration)}\n`);
  } finally {
    await neo.stop();
  }
}
