/**
 * Real clinical notes bench (issue 47): stratified folds of the labelled MTSamples notes in one
 * run, each note held out once. The KG is built from the other notes as whole notes (the build's
 * own preparation leaves out their diagnosis sections); each held-out note is asked in two views:
 * its presentation only, and the whole note without its diagnosis sections (bench/lib/real-notes-views.ts).
 * Printed per view, top-1 / top-3: naive Bayes over the KG's features (in memory), TF-IDF kNN and
 * nearest centroid trained on the same notes, whole and in the view asked (the better marked).
 * The notes are read from ../shared, never copied into the repository (their README's terms).
 *
 *   node --import tsx bench/real-notes.ts
 *   node --import tsx bench/real-notes.ts --folds 5 --seed 47 --notes ../shared/datasets/mtsamples/labelled-train.jsonl
 *   node --import tsx bench/real-notes.ts --decompose '{"maxNoteFeatureShare":1}'
 */
import { parseArgs } from 'node:util';
import { loadSectionRules } from '../src/clinical-text/sections/index.js';
import type { DecomposeOptions } from '../kg-build/decompose-features.js';
import { notesReaders } from './lib/notes-kg-run.js';
import { DEFAULT_REAL_NOTES, loadRealNotes, stratifiedFolds, type RealNote } from './lib/real-notes-data.js';
import { emptyHits, MEMORY_METHODS, runMemoryFold, type FoldKg } from './lib/real-notes-memory.js';
import { formatRealNotes } from './lib/real-notes-table.js';
import { noteView, VIEWS, type View } from './lib/real-notes-views.js';

const { values: a } = parseArgs({
  options: {
    notes: { type: 'string', default: DEFAULT_REAL_NOTES },
    folds: { type: 'string', default: '5' },
    seed: { type: 'string', default: '47' },
    k: { type: 'string', default: '5' },
    decompose: { type: 'string' },
  },
});

const log = (s: string) => process.stderr.write(`[real-notes] ${s}\n`);
const notes = await loadRealNotes(a.notes!);
const k = Number(a.folds);
const minPatients = Number(a.k);
if (!Number.isInteger(minPatients) || minPatients < 1) throw new Error('--k: a positive integer');
let decompose: Partial<DecomposeOptions> | undefined;
try {
  decompose = a.decompose === undefined ? undefined : (JSON.parse(a.decompose) as Partial<DecomposeOptions>);
} catch (e) {
  throw new Error(`--decompose: not JSON (${(e as Error).message})`);
}
const folds = stratifiedFolds(notes, k, Number(a.seed));
const rules = await loadSectionRules();
if (!rules.ok) throw rules.error;
const { prepare } = await notesReaders();
// Each note prepared once (scrubbed, diagnosis sections cut) and cut to each view once.
const prepared = new Map(notes.map((n) => [n.id, prepare(n.text).text]));
const views = new Map(notes.map((n) => [n.id, Object.fromEntries(VIEWS.map((v) => [v, noteView(prepared.get(n.id)!, v, rules.value)])) as Record<View, string>]));
const hits = emptyHits(MEMORY_METHODS);
const kgs: FoldKg[] = [];
for (const [i, test] of folds.entries()) {
  const train = folds.filter((_, j) => j !== i).flat();
  const t0 = performance.now();
  const { kg } = await runMemoryFold({ train, test, viewOf: (n: RealNote, v: View) => views.get(n.id)![v], prepared: (n) => prepared.get(n.id)!, minPatients, ...(decompose ? { decompose } : {}), hits });
  kgs.push(kg);
  log(`fold ${i + 1}/${k}: KG from ${kg.notes} notes in ${Math.round(kg.buildMs)} ms (${kg.features} features, emergent ${kg.emergent.kept}/${kg.emergent.candidates}); ${test.length} held out, fold ${Math.round(performance.now() - t0)} ms`);
}
process.stdout.write(formatRealNotes({ notes, folds: k, hits, kgs, viewChars: VIEWS.map((v) => [v, notes.reduce((t, n) => t + views.get(n.id)![v].length, 0) / notes.length] as const) }));
