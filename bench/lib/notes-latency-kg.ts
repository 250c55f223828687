import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../../src/config.js';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { paramsFromFlags } from '../../src/cli/build-command.js';
import { ConcatSource } from '../../src/sources/concat-source.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import { runBuild } from '../../kg-build/pipeline.js';

/** Labelled notes as `dxgraph build --source jsonl:<file> --mapping` reads them (whole notes; the build leaves out diagnosis sections). */
const MAPPING = { id: 'id', diagnosis: 'diagnosis', notes: ['text'] };

/**
 * The latency bench's KG: the database WIPED, then `dxgraph build --source ddxplus:<dir>
 * [--source jsonl:<notes>]` into Neo4j and FAISS under config.dataDir. Returns the build's seconds.
 */
export async function buildLatencyKg(o: { config: Config; ddxplusDir: string; notesPath: string | null; minPatients?: number }): Promise<number> {
  const graph = new GraphStore(o.config.neo4j);
  await graph.connect();
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-latency-kg-'));
  try {
    while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
    const specs = [`ddxplus:${o.ddxplusDir}`];
    const parts = [await openSource(parseSourceSpec(specs[0]!, {}), { strict: false })];
    if (o.notesPath) {
      // A copy in the temporary folder: the source reads it there, the shared file stays untouched.
      await copyFile(resolve(o.notesPath), join(dir, 'notes.jsonl'));
      await writeFile(join(dir, 'mapping.json'), JSON.stringify(MAPPING));
      specs.push(`jsonl:${join(dir, 'notes.jsonl')}`);
      parts.push(await openSource(parseSourceSpec(specs[1]!, { mapping: join(dir, 'mapping.json') }), { strict: false }));
    }
    const params = paramsFromFlags({ source: specs, hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000, minPatients: o.minPatients ?? 5 });
    const source = parts.length === 1 ? parts[0]! : new ConcatSource(parts);
    const t0 = performance.now();
    try {
      await runBuild({ source, dataDir: o.config.dataDir, params }, { graph, embedder: createEmbedder(o.config), indexFactory: FaissVectorIndex, llm: null, noteReader: async () => (await loadNoteReader()).deps });
    } finally {
      await source.close();
    }
    return (performance.now() - t0) / 1000;
  } finally {
    await graph.close();
    await rm(dir, { recursive: true, force: true });
  }
}
