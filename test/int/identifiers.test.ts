import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { paramsFromFlags } from '../../src/cli/build-command.js';
import type { IdentifierKind } from '../../src/clinical-text/deidentify/index.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type DxServer } from '../../src/server.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import { runBuild, type BuildOutcome } from '../../kg-build/pipeline.js';
import { formatReport } from '../../kg-build/report.js';
import { clearDatabase, testGraphStore } from '../support/neo4j.js';
import { captureLogger, post } from './faults-support.js';

/**
 * Issue 47 item 6 end to end: a KG built through the real build (tabular JSONL source, the shipped
 * note reader, real Neo4j, faiss-node) from 45 invented notes carrying every kind of identifier
 * real notes carry (facilities repeated across one disease's notes, towns, streets, dictation
 * footers, initials, ages over 89, besides names, dates, numbers); then the real server asked a
 * note with identifiers of its own. No planted identifier may be in Neo4j (any node or
 * relationship property), in the files of the build, in the build's or the server's log, or in an
 * answer; eponyms written in the notes stay findings.
 */
interface IdentifierNote {
  id: string;
  condition: string;
  age: number;
  sex: 'M' | 'F';
  text: string;
  planted: Partial<Record<IdentifierKind, string[]>>;
}
const NOTES: IdentifierNote[] = readFileSync('test/fixtures/identifier-notes/notes.jsonl', 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as IdentifierNote);
const PLANTED = [...new Set(NOTES.flatMap((n) => Object.values(n.planted).flat()))];
const MAPPING = { id: 'id', diagnosis: 'condition', age: 'age', sex: 'sex', notes: ['text'] };

/**
 * Where a planted string is mentioned: case-insensitive, as a whole token (no letter or digit
 * around it, no decimal point before it: a ZIP code "12914" is not in a weight 0.129143).
 */
function leaks(haystack: string): string[] {
  return PLANTED.filter((s) => new RegExp(`(?<![A-Za-z0-9.])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'i').test(haystack));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A note asked after the build, with identifiers of its own (the caller's text, not the training notes'). */
const QUERY = [
  'ST. WENCESLAS HOSPITAL - EMERGENCY DEPARTMENT',
  'Patient: Evangeline Throckmorton   MRN: 5093317',
  'HPI: 93-year-old woman from Pinebluff with vomiting, polyuria and polydipsia for 2 days, abdominal pain, missed insulin.',
  'EXAM: HR 122, RR 30, dry mucous membranes, fruity breath, Kussmaul breathing. Abdomen diffusely tender.',
  'Dictated by: Horatio Vance, MD',
  'HV/mm',
].join('\n');

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'identifiers-int-'));
  dirs.push(d);
  return d;
};

describe('identifiers real notes carry never reach the KG, its files, the logs or an answer (issue 47; real Neo4j)', function () {
  // One build of 45 notes: seconds on an idle machine; the note reader's HPO parse dominates.
  this.timeout(300_000);
  let store: GraphStore;
  let outcome: BuildOutcome;
  let dataDir: string;
  const buildLog: string[] = [];

  before(async () => {
    const t0 = performance.now();
    store = await testGraphStore();
    await clearDatabase({ store });
    const dir = tmp();
    const corpus = join(dir, 'notes.jsonl');
    // The source gets the notes as a hospital exports them: no list of what was planted.
    writeFileSync(corpus, NOTES.map(({ planted: _, ...n }) => JSON.stringify(n)).join('\n') + '\n');
    const mapping = join(dir, 'mapping.json');
    writeFileSync(mapping, JSON.stringify(MAPPING));
    dataDir = tmp();
    const source = await openSource(parseSourceSpec(`jsonl:${corpus}`, { mapping }), { strict: false });
    const hashed = new HashedEmbedder();
    // Everything the build writes to stderr (its progress lines) is its log.
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      buildLog.push(String(chunk));
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      const params = { ...paramsFromFlags({ source: [`jsonl:${corpus}`], hierarchy: 'statistical', subcategories: 'auto', categories: 'auto', batchSize: 5000, minPatients: 2 }), recordsInGraph: true };
      outcome = await runBuild({ source, dataDir, params }, { graph: store, embedder: { id: hashed.id, embeddings: hashed }, indexFactory: FaissVectorIndex, llm: null, noteReader: () => loadNoteReader().then((l) => l.deps) });
    } finally {
      process.stderr.write = write;
      await source.close();
    }
    process.stderr.write(`    [identifiers] build of ${NOTES.length} notes: ${((performance.now() - t0) / 1000).toFixed(1)} s; scrubbed ${JSON.stringify(outcome.notes.scrubbed)}\n`);
  });

  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('the build read every note and counts what it scrubbed, the new kinds included', () => {
    assert.equal(outcome.notes.notes, NOTES.length);
    assert.equal(outcome.kg.diseases.length, 5);
    const { FACILITY = 0, LOCATION = 0, AGE = 0, NAME = 0, DATE = 0 } = outcome.notes.scrubbed;
    assert.ok(FACILITY >= NOTES.length && LOCATION >= 10 && AGE >= 5 && NAME >= 2 * NOTES.length && DATE >= 2 * NOTES.length, JSON.stringify(outcome.notes.scrubbed));
  });

  it('no planted identifier is a property of any node or relationship in Neo4j', async () => {
    const nodes = await store.runText('MATCH (n) RETURN labels(n) AS labels, properties(n) AS props', {}, 'READ');
    const rels = await store.runText('MATCH ()-[r]->() RETURN type(r) AS type, properties(r) AS props', {}, 'READ');
    assert.ok(nodes.some((r) => (r.labels as string[]).includes('Record')), 'the records are in the graph too (recordsInGraph)');
    const leaked = [...nodes, ...rels].flatMap((r) => leaks(JSON.stringify(r.props)).map((s) => `${JSON.stringify(r.labels ?? r.type)}: ${s}`));
    assert.deepEqual(leaked, []);
  });

  it('no planted identifier is in a file of the build (manifest, indexes, records, report)', () => {
    const files = filesUnder(dataDir);
    assert.ok(files.length > 3, files.join(', '));
    const leaked = files.flatMap((f) => leaks(readFileSync(f).toString('latin1')).map((s) => `${f.slice(dataDir.length)}: ${s}`));
    assert.deepEqual(leaked, []);
    assert.deepEqual(leaks(formatReport(outcome)), [], 'the build report');
    assert.deepEqual(leaks(buildLog.join('')), [], 'the build log');
  });

  it('eponyms written in the notes stay findings of the KG', async () => {
    const rows = await store.runText('MATCH (f:Feature) RETURN f.text AS text, f.forms AS forms', {}, 'READ');
    const said = rows.flatMap((r) => [String(r.text), ...((r.forms as string[] | null) ?? [])]).join(' | ').toLowerCase();
    const kept = ['murphy', 'kernig', 'brudzinski', 'homans', 'kussmaul'].filter((e) => said.includes(e));
    assert.ok(kept.length >= 3, `eponyms among the features: ${kept.join(', ')}`);
  });

  it('the served answer to a note carries no training identifier, nor the log any identifier', async () => {
    const logs: string[] = [];
    const config = loadConfig({ ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' });
    let server: DxServer | undefined;
    try {
      server = await startServer({ config, logger: captureLogger(logs), port: 0 });
      const res = await post(`${server.url}/v1/diagnose`, { text: QUERY, age: 90, sex: 'F' });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      const body = JSON.stringify(res.json);
      assert.deepEqual(leaks(body), [], 'a training note identifier in the answer');
      assert.ok(res.json.differential.length > 0);
      // The query's own identifiers: never logged.
      const own = ['Wenceslas', 'Evangeline', 'Throckmorton', '5093317', 'Pinebluff', 'Horatio', 'Vance', 'HV/mm'];
      assert.deepEqual(own.filter((s) => logs.join('').includes(s)), [], 'the caller identifiers in the server log');
      assert.deepEqual(leaks(logs.join('')), [], 'a training identifier in the server log');
    } finally {
      // lingerMs 0: a teardown; no client sends another request on an idle kept-alive socket, so no 1 s linger.
      await server?.close({ drainMs: 1000, lingerMs: 0 });
    }
  });
});
