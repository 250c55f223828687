/**
 * Notes build at scale (issue 24): N notes (default 100,000) recombined from the shipped training
 * notes (bench/lib/notes-generate.ts), built as a user builds them (`dxgraph build --source
 * jsonl:… --mapping` with a `notes` column) into a dedicated Neo4j and FAISS. Prints the build's
 * stage timings, notes per second and the process's peak RSS.
 *
 *   node --import tsx bench/notes-scale.ts [--notes 100000]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createEmbedder } from '../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';
import { paramsFromFlags } from '../src/cli/build-command.js';
import { loadNoteReader } from '../kg-build/note-reader.js';
import { runBuild } from '../kg-build/pipeline.js';
import { benchNeo4j } from './lib/neo4j.js';
import { loadNotesSet, NOTES_CORPORA } from './lib/notes-kg-run.js';
import { writeScaleNotes } from './lib/notes-generate.js';

const { values: a } = parseArgs({ options: { notes: { type: 'string', default: '100000' }, 'work-dir': { type: 'string', default: '.dxgraph-bench/notes-scale' } } });
const log = (s: string) => process.stderr.write(`[notes-scale] ${s}\n`);
const n = Number(a.notes);
const dir = resolve(a['work-dir']!);
await mkdir(dir, { recursive: true });
const sets = await Promise.all(NOTES_CORPORA.flatMap((c) => c.train).map(loadNotesSet));
const notesPath = join(dir, `notes-${n}.jsonl`);
const { conditions } = await writeScaleNotes(sets, n, notesPath);
await writeFile(join(dir, 'mapping.json'), JSON.stringify({ id: 'id', diagnosis: 'condition', age: 'age', sex: 'sex', notes: ['text'] }));
log(`${n} notes of ${conditions} conditions written`);
const neo = await benchNeo4j({ uri: null, heapMax: '2g', pageCache: '1g' });
try {
  const base = loadConfig();
  const config = { ...base, neo4j: { ...base.neo4j, uri: neo.uri, password: '' }, dataDir: join(dir, 'data'), llm: { ...base.llm, enabled: false } };
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  const spec = `jsonl:${notesPath}`;
  const source = await openSource(parseSourceSpec(spec, { mapping: join(dir, 'mapping.json') }), { strict: false });
  const t0 = performance.now();
  try {
    const params = paramsFromFlags({ source: [spec], hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000 });
    const out = await runBuild({ source, dataDir: config.dataDir, params }, { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null, noteReader: async () => (await loadNoteReader()).deps });
    const s = (performance.now() - t0) / 1000;
    const edges = out.kg.manifestations;
    const backed = edges.filter((e) => e.count >= 2).length;
    process.stdout.write([
      `notes build: ${n} notes in ${s.toFixed(1)} s (${Math.round(n / s)} notes/s), peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
      `  KG: ${out.kg.diseases.length} diseases, ${out.kg.features.length} features, ${edges.length} edges (${Math.round((100 * backed) / edges.length)}% backed by 2+ notes), emergent ${out.notes.emergent.kept} of ${out.notes.emergent.candidates} candidates`,
      `  stages (ms): ${Object.entries(out.timings).map(([k, v]) => `${k} ${v}`).join(' | ')}`,
      '',
    ].join('\n'));
  } finally {
    await source.close();
    await graph.close();
  }
} finally {
  await neo.stop();
}
