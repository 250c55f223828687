/**
 * Exam-style vignettes (issue 47): clinician-written board-style cases with vitals, labs and exam
 * and imaging signs (datasets/vignettes/exam-dev.jsonl for tuning, exam-dev-b.jsonl to check),
 * asked of a KG built from the DDXPlus codes plus the repo's five vignette dev sets as notes.
 * Prints top-1 / top-3 for the whole diagnose path, naive Bayes alone (the KG's own knowledge)
 * and TF-IDF kNN over the same records and notes, then each miss of the whole path with the
 * features it read.
 *
 *   node --import tsx bench/exam-vignettes.ts                       # dedicated Neo4j, fresh build
 *   node --import tsx bench/exam-vignettes.ts --misses exam-dev     # misses of one set only
 *   NEO4J_URI=bolt://127.0.0.1:17687 node --import tsx bench/exam-vignettes.ts --skip-build --data-dir .dxgraph-bench/exam
 *
 * With --neo4j-uri / NEO4J_URI that server's database is WIPED and rebuilt unless --skip-build.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { InputError } from '../src/errors.js';
import { askExamSets, buildCodesNotesKg, type ExamCase } from './lib/exam-run.js';
import { benchNeo4j } from './lib/neo4j.js';
import { loadNotesSet, NOTES_CORPORA } from './lib/notes-kg-run.js';

const { values: a } = parseArgs({
  options: {
    sets: { type: 'string', default: 'datasets/vignettes/exam-dev.jsonl,datasets/vignettes/exam-dev-b.jsonl' },
    // The notes the KG learns besides the DDXPlus codes: the five vignette dev sets (never the blind ones).
    notes: { type: 'string', default: NOTES_CORPORA[0]!.train.join(',') },
    ddxplus: { type: 'string', default: 'datasets/ddxplus' },
    k: { type: 'string', default: '5' },
    // Sets (by file name without .jsonl) whose misses are printed; '' prints none.
    misses: { type: 'string', default: 'exam-dev' },
    'skip-build': { type: 'boolean', default: false },
    'neo4j-uri': { type: 'string' },
    'data-dir': { type: 'string', default: '.dxgraph-bench/exam' },
    json: { type: 'string' },
  },
});
const log = (s: string) => process.stderr.write(`[exam] ${s}\n`);
const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
const minPatients = Number(a.k);
if (!Number.isInteger(minPatients) || minPatients < 1) throw new InputError('--k: a positive integer', { field: 'k' });
const givenUri = a['neo4j-uri'] ?? process.env.NEO4J_URI ?? null;
if (a['skip-build'] && givenUri === null) throw new InputError('--skip-build needs a Neo4j that holds the KG (--neo4j-uri or NEO4J_URI)', { field: 'skip-build' });

const sets = await Promise.all(list(a.sets!).map(loadNotesSet));
// A vignette's first tag says what carries it: 'signs' (exam, labs, imaging) or 'history' (the story).
const kindOf = new Map<string, string>();
for (const p of list(a.sets!)) for (const l of (await readFile(p, 'utf8')).split('\n').filter((x) => x.trim())) {
  const r = JSON.parse(l) as { id: string; tags?: string[] };
  kindOf.set(r.id, r.tags?.[0] ?? 'all');
}
const notes = (await Promise.all(list(a.notes!).map(loadNotesSet))).flatMap((s) => s.notes);
const base = loadConfig();
const neo = await benchNeo4j({ uri: givenUri });
const config = { ...base, neo4j: { ...base.neo4j, uri: neo.uri, ...(neo.dedicated ? { password: '' } : {}) }, dataDir: resolve(a['data-dir']!), llm: { ...base.llm, enabled: false } };
const graph = new GraphStore(config.neo4j);
let results: Awaited<ReturnType<typeof askExamSets>>;
try {
  await graph.connect();
  if (!a['skip-build']) log(`KG from DDXPlus codes + ${notes.length} vignette notes built in ${(await buildCodesNotesKg({ config, graph, ddxplusDir: a.ddxplus!, notes, minPatients })).toFixed(1)} s`);
  results = await askExamSets({ config, graph, ddxplusDir: a.ddxplus!, notes, sets });
} finally {
  await graph.close();
  await neo.stop();
}

const pct = (x: number, n: number) => (n === 0 ? '0.0' : ((100 * x) / n).toFixed(1));
const at = (cases: ExamCase[], key: keyof ExamCase['rank'], k: number) => cases.filter((c) => c.rank[key] !== null && c.rank[key]! <= k).length;
const cell = (cases: ExamCase[], key: keyof ExamCase['rank']) => `${pct(at(cases, key, 1), cases.length)} / ${pct(at(cases, key, 3), cases.length)}`;
const shortName = (p: string) => p.split('/').pop()!.replace(/\.jsonl$/, '');
const lines = ['exam-style vignettes, KG from DDXPlus codes + vignette notes; top-1 / top-3:', '| set | n | whole path | naive Bayes alone (KG) | TF-IDF kNN |', '| --- | --- | --- | --- | --- |'];
for (const r of results) {
  const kinds = [...new Set(r.cases.map((c) => kindOf.get(c.id) ?? 'all'))];
  const groups: [string, ExamCase[]][] = [[shortName(r.set), r.cases], ...(kinds.length > 1 ? kinds.map((k): [string, ExamCase[]] => [`  ${k}-led`, r.cases.filter((c) => kindOf.get(c.id) === k)]) : [])];
  for (const [name, cases] of groups) lines.push(`| ${name} | ${cases.length} | ${cell(cases, 'whole')} | ${cell(cases, 'kgAlone')} | ${cell(cases, 'tfidf')} |`);
}
const shown = new Set(list(a.misses!));
for (const r of results.filter((x) => shown.has(shortName(x.set)))) {
  lines.push('', `misses of ${shortName(r.set)} (whole path, not top-1): id gold (rank) → top 3; features read`);
  for (const c of r.cases.filter((x) => x.rank.whole !== 1)) lines.push(`${c.id} ${c.condition} (${c.rank.whole ?? '-'}) → ${c.top.join(' | ')}\n    ${c.findings} findings; read: ${c.read.join(', ') || '(nothing)'}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
if (a.json) await writeFile(a.json, JSON.stringify(results, null, 2));
