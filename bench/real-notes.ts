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
 *   node --import tsx bench/real-notes.ts --served     # + the whole diagnose path and the KG alone, built through a dedicated Neo4j per fold
 *   node --import tsx bench/real-notes.ts --served --served-evidence '{"voteWeight":0}'   # + served rows of reasoner variants on the same builds
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { benchNeo4j, type BenchNeo4j } from './lib/neo4j.js';
import { runServedFold, servedMethods, type ServedFold } from './lib/real-notes-served.js';
import { loadSectionRules } from '../src/clinical-text/sections/index.js';
import type { DecomposeOptions } from '../kg-build/decompose-features.js';
import { notesReaders } from './lib/notes-kg-run.js';
import { DEFAULT_REAL_NOTES, loadRealNotes, stratifiedFolds, type RealNote } from './lib/real-notes-data.js';
import { emptyHits, evidenceRow, MEMORY_METHODS, runMemoryFold, type FoldKg, type Variant } from './lib/real-notes-memory.js';
import type { EvidenceReasonerOptions } from '../src/reasoners/evidence-reasoner.js';
import { formatRealNotes } from './lib/real-notes-table.js';
import { noteView, VIEWS, type View } from './lib/real-notes-views.js';

const { values: a } = parseArgs({
  options: {
    notes: { type: 'string', default: DEFAULT_REAL_NOTES },
    folds: { type: 'string', default: '5' },
    seed: { type: 'string', default: '47' },
    k: { type: 'string', default: '5' },
    decompose: { type: 'string' },
    // More build-option variants (decompose JSON objects separated by ';'), each its own naive Bayes row; the notes are read once per fold.
    sweep: { type: 'string' },
    // Evidence reasoner options asked of every variant's KG (JSON objects separated by ';'), each its own row.
    evidence: { type: 'string' },
    served: { type: 'boolean', default: false },
    // With --served: evidence-reasoner variants served beside the defaults ('<json>;<json>'), on the same builds.
    'served-evidence': { type: 'string' },
    // Only these folds (0-based, comma-separated) while iterating; the figures cover their held-out notes.
    'only-folds': { type: 'string' },
    'data-dir': { type: 'string', default: '.dxgraph-bench/real-notes' },
    // With --served: this Neo4j instead of a dedicated one (its database is WIPED).
    'neo4j-uri': { type: 'string' },
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
const only = a['only-folds'] === undefined ? null : new Set(a['only-folds'].split(',').map(Number));
if (only && [...only].some((i) => !Number.isInteger(i) || i < 0 || i >= k)) throw new Error(`--only-folds: fold numbers 0..${k - 1}`);
const asked = only ? folds.filter((_, i) => only.has(i)).flat() : notes;
const rules = await loadSectionRules();
if (!rules.ok) throw rules.error;
const { prepare } = await notesReaders();
// Each note prepared once (scrubbed, diagnosis sections cut) and cut to each view once.
const prepared = new Map(notes.map((n) => [n.id, prepare(n.text).text]));
const views = new Map(notes.map((n) => [n.id, Object.fromEntries(VIEWS.map((v) => [v, noteView(prepared.get(n.id)!, v, rules.value)])) as Record<View, string>]));
const evidence: Partial<EvidenceReasonerOptions>[] = [{}, ...(a.evidence ?? '').split(';').filter((x) => x.trim()).map((x) => JSON.parse(x) as Partial<EvidenceReasonerOptions>)];
const variants: Variant[] = [{ name: 'kg-nb', decompose: decompose ?? {}, evidence }, ...(a.sweep ?? '').split(';').filter((x) => x.trim()).map((x) => ({ name: `kg-nb ${x.trim()}`, decompose: { ...decompose, ...(JSON.parse(x) as Partial<DecomposeOptions>) }, evidence }))];
const servedEvidence: Partial<EvidenceReasonerOptions>[] = [{}, ...(a['served-evidence'] ?? '').split(';').filter((x) => x.trim()).map((x) => JSON.parse(x) as Partial<EvidenceReasonerOptions>)];
const hits = emptyHits([...(a.served ? servedMethods(servedEvidence).map((m) => m.name) : []), ...variants.flatMap((x) => evidence.map((_, i) => evidenceRow(x, i))), ...variants.flatMap((x) => evidence.map((_, i) => `${evidenceRow(x, i)} +records`)), ...MEMORY_METHODS.filter((m) => m !== 'kg-nb')]);
const kgs: FoldKg[] = [];
const served: ServedFold[] = [];
const viewOf = (n: RealNote, v: View) => views.get(n.id)![v];
const neo: BenchNeo4j | null = a.served ? await benchNeo4j({ uri: a['neo4j-uri'] ?? null }) : null;
try {
  const base = loadConfig();
  const config = neo ? { ...base, neo4j: { ...base.neo4j, uri: neo.uri, ...(neo.dedicated ? { password: '' } : {}) }, dataDir: resolve(a['data-dir']!), llm: { ...base.llm, enabled: false } } : null;
  for (const [i, test] of folds.entries()) {
    if (only && !only.has(i)) continue;
    const train = folds.filter((_, j) => j !== i).flat();
    const t0 = performance.now();
    const { kgs: built } = await runMemoryFold({ train, test, viewOf, prepared: (n) => prepared.get(n.id)!, minPatients, variants, hits });
    kgs.push(built[0]!);
    for (const [j, kg] of built.entries()) log(`fold ${i + 1}/${k} ${variants[j]!.name}: KG from ${kg.notes} notes in ${Math.round(kg.buildMs)} ms (${kg.features} features, emergent ${kg.emergent.kept}/${kg.emergent.candidates})`);
    log(`fold ${i + 1}/${k}: ${test.length} held out, fold ${Math.round(performance.now() - t0)} ms`);
    // The figures so far (the held-out notes of the folds done), for a run stopped early.
    const done = folds.slice(0, i + 1).filter((_, j) => !only || only.has(j)).flat();
    if (i + 1 < k) log(`after ${i + 1} folds:\n${formatRealNotes({ notes: done, folds: i + 1, hits, kgs, viewChars: [] })}`);
    if (config) {
      const s = await runServedFold({ config, train, test, viewOf, minPatients, ...(decompose ? { decompose } : {}), evidence: servedEvidence, hits, log });
      served.push(s);
      log(`fold ${i + 1}/${k} served: built through Neo4j in ${Math.round(s.buildMs)} ms (${s.features} features); refused ${JSON.stringify(s.refused)}, empty views ${JSON.stringify(s.empty)}`);
    }
  }
} finally {
  await neo?.stop();
}
process.stdout.write(formatRealNotes({ notes: asked, folds: only ? only.size : k, hits, kgs, served, viewChars: VIEWS.map((v) => [v, asked.reduce((t, n) => t + views.get(n.id)![v].length, 0) / asked.length] as const) }));
