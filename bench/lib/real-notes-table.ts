import type { RealNote } from './real-notes-data.js';
import type { FoldKg, Hits, ViewHits } from './real-notes-memory.js';
import type { ServedFold } from './real-notes-served.js';
import { VIEWS, type View } from './real-notes-views.js';

const pct = (x: number, n: number) => (n === 0 ? '0.0' : ((100 * x) / n).toFixed(1));
const cell = (h: Hits | undefined, n: number) => (h ? `${pct(h[0], n)} / ${pct(h[1], n)}` : '-');
/** The better of two hit counts: top-1 first, top-3 breaking ties. */
const better = (x: Hits, y: Hits): Hits => (x[0] > y[0] || (x[0] === y[0] && x[1] >= y[1]) ? x : y);

const LABELS: Record<string, string> = {
  served: 'whole diagnose path (vote, key differences, record kNN)',
  'kg-alone': 'KG alone (record retrieval none)',
  'kg-nb': 'naive Bayes over the KG features (in memory)',
  'knn-whole': 'TF-IDF kNN, trained on whole notes',
  'knn-view': 'TF-IDF kNN, trained in the view',
  'centroid-whole': 'TF-IDF centroid, trained on whole notes',
  'centroid-view': 'TF-IDF centroid, trained in the view',
};

/** The figures of one run as markdown: per view and method top-1 / top-3, the better baseline, the KG's size per fold. */
export function formatRealNotes(o: { notes: readonly RealNote[]; folds: number; hits: ViewHits; kgs: readonly FoldKg[]; served?: readonly ServedFold[]; viewChars: readonly (readonly [View, number])[] }): string {
  const n = o.notes.length;
  const diagnoses = new Set(o.notes.map((x) => x.diagnosis)).size;
  const methods = Object.keys(o.hits.presentation);
  const lines = [
    `real notes: ${n} labelled notes, ${diagnoses} diagnoses, ${o.folds} stratified folds (each note held out once); mean chars asked: ${o.viewChars.map(([v, c]) => `${v} ${Math.round(c)}`).join(', ')}`,
    '',
    `| method | ${VIEWS.join(' top-1 / top-3 | ')} top-1 / top-3 |`,
    `| --- |${VIEWS.map(() => ' --- |').join('')}`,
    ...methods.map((m) => `| ${LABELS[m] ?? m} | ${VIEWS.map((v) => cell(o.hits[v][m], n)).join(' | ')} |`),
  ];
  const baseline = (v: View) => ['knn-whole', 'knn-view', 'centroid-whole', 'centroid-view'].map((m) => o.hits[v][m]).filter((h): h is Hits => h !== undefined).reduce(better);
  lines.push(`| **better baseline** | ${VIEWS.map((v) => `**${cell(baseline(v), n)}**`).join(' | ')} |`, '');
  const feats = o.kgs.map((k) => k.features);
  const perNote = o.kgs.map((k) => k.features / k.notes);
  lines.push(
    `KG per fold: ${o.kgs.map((k) => `${k.features} features / ${k.notes} notes (emergent ${k.emergent.kept}/${k.emergent.candidates}, ${(k.buildMs / 1000).toFixed(1)} s)`).join('; ')}`,
    `features: mean ${(feats.reduce((s, x) => s + x, 0) / feats.length).toFixed(1)}, per note ${(perNote.reduce((s, x) => s + x, 0) / perNote.length).toFixed(2)} (max ${Math.max(...perNote).toFixed(2)})`,
    '',
  );
  if (o.served?.length) {
    const refused: Record<string, number> = {};
    const empty: Record<string, number> = {};
    for (const s of o.served) for (const [key, c] of Object.entries(s.refused)) refused[key] = (refused[key] ?? 0) + c;
    for (const s of o.served) for (const [key, c] of Object.entries(s.empty ?? {})) empty[key] = (empty[key] ?? 0) + c;
    const ms = o.served.flatMap((s) => s.askMs).sort((x, y) => x - y);
    const q = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0);
    lines.push(`served: built through Neo4j per fold in ${o.served.map((s) => (s.buildMs / 1000).toFixed(1)).join(', ')} s (${o.served.map((s) => s.features).join(', ')} features); diagnose p50 ${q(0.5)} ms, p99 ${q(0.99)} ms; refused: ${Object.entries(refused).map(([key, c]) => `${key} ${c}`).join(', ') || 'none'}; empty views (not posted, misses): ${Object.entries(empty).map(([key, c]) => `${key} ${c}`).join(', ') || 'none'}`, '');
  }
  return lines.join('\n');
}
