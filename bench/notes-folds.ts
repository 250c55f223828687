/**
 * Dev folds of the notes KG (issue 24): each training file of a shipped corpus in turn is held out
 * and asked of a KG built in memory from the others (naive Bayes alone, the KG's knowledge), beside
 * the TF-IDF kNN and centroid trained on the same notes. These are the "vignette folds" and
 * "notes-pc quarters" figures docs/notes.md cites for every reader change; the blind sets are
 * never read here.
 *
 *   node --import tsx bench/notes-folds.ts                      # the five vignette dev sets
 *   node --import tsx bench/notes-folds.ts --corpus notes-pc    # the four notes-pc training quarters
 *   node --import tsx bench/notes-folds.ts --reasoner '{"notesAlpha":0.5}' --decompose '{"emergentMaxP":0.01}'
 */
import { parseArgs } from 'node:util';
import { loadNotesSet, NOTES_CORPORA, runNotesBench, type SetScore } from './lib/notes-kg-run.js';
import type { DecomposeOptions } from '../kg-build/decompose-features.js';

const CORPORA: Record<string, string[]> = { vignettes: NOTES_CORPORA[0]!.train, 'notes-pc': NOTES_CORPORA[1]!.train };

const { values: a } = parseArgs({
  options: {
    corpus: { type: 'string', default: 'vignettes' },
    k: { type: 'string', default: '5' },
    reasoner: { type: 'string' },
    decompose: { type: 'string' },
  },
});

function json<T>(flag: string, raw: string | undefined): T | undefined {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch (e) {
    throw new Error(`--${flag}: not JSON (${(e as Error).message})`);
  }
}

const files = CORPORA[a.corpus!];
if (!files) throw new Error(`--corpus: one of ${Object.keys(CORPORA).join(', ')} (got "${a.corpus}")`);
const minPatients = Number(a.k);
if (!Number.isInteger(minPatients) || minPatients < 1) throw new Error('--k: a positive integer');
const reasoner = json<Record<string, number>>('reasoner', a.reasoner);
const decompose = json<Partial<DecomposeOptions>>('decompose', a.decompose);

const log = (s: string) => process.stderr.write(`[notes-folds] ${s}\n`);
const sets = await Promise.all(files.map(loadNotesSet));
const folds: SetScore[] = [];
for (let i = 0; i < sets.length; i++) {
  const train = sets.filter((_, j) => j !== i);
  const { scores } = await runNotesBench({ train, tests: [sets[i]!], minPatients, ...(reasoner ? { reasoner } : {}), ...(decompose ? { decompose } : {}) }, log);
  folds.push(scores[0]!);
}

const pct = (x: number, n: number) => (n === 0 ? '0.0' : ((100 * x) / n).toFixed(1));
const cell = (s: Pick<SetScore, 'n'>, v: [number, number]) => `${pct(v[0], s.n)} / ${pct(v[1], s.n)}`;
const sum = (key: 'kg' | 'knn' | 'centroid'): [number, number] => [folds.reduce((t, f) => t + f[key][0], 0), folds.reduce((t, f) => t + f[key][1], 0)];
const all = { n: folds.reduce((t, f) => t + f.n, 0) };
console.log(`notes KG dev folds (${a.corpus}, each file held out in turn; naive Bayes alone), top-1 / top-3:`);
console.log('| held-out file | n | notes KG (NB alone) | TF-IDF kNN | TF-IDF centroid |');
console.log('| --- | --- | --- | --- | --- |');
for (const f of folds) console.log(`| ${f.set} | ${f.n} | ${cell(f, f.kg)} | ${cell(f, f.knn)} | ${cell(f, f.centroid)} |`);
console.log(`| **all folds** | ${all.n} | **${cell(all, sum('kg'))}** | ${cell(all, sum('knn'))} | ${cell(all, sum('centroid'))} |`);
