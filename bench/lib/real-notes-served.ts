import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { openQueryService, textInput } from '../../src/query/query-service.js';
import { DEFAULT_RECORD_RETRIEVAL } from '../../src/query/retrieve-records.js';
import { paramsFromFlags } from '../../src/cli/build-command.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import { runBuild } from '../../kg-build/pipeline.js';
import type { DecomposeOptions } from '../../kg-build/decompose-features.js';
import type { RealNote } from './real-notes-data.js';
import { addHit, type ViewHits } from './real-notes-memory.js';
import { EvidenceReasoner, type EvidenceReasonerOptions } from '../../src/reasoners/evidence-reasoner.js';
import { VIEWS, type View } from './real-notes-views.js';

/**
 * One fold of the real-notes bench as a user gets it: `dxgraph build --source jsonl:notes` into
 * Neo4j and FAISS from the training notes (whole; the build's preparation cuts their diagnosis
 * sections), then every held-out note in each view through the query service's diagnose path:
 * "served" with the configured record retrieval (vote, key differences, similar records' kNN),
 * "kg-alone" with record retrieval none (DXGRAPH_RECORD_RETRIEVAL=none: the KG's own reasoning).
 * A refused note (an InputError: too many findings, too long) counts as a miss and is counted.
 * An empty view (a note that is only the clinician's conclusion, an operative report: no
 * presentation section, or nothing left once its diagnosis sections are cut) is not posted: it is
 * a miss counted as "empty view", not a refusal of the service (which answers every real note).
 */
export const SERVED_METHODS = ['served', 'kg-alone'] as const;

/** The served rows for evidence-reasoner variants (`--served-evidence`): the defaults keep the plain names. */
export function servedMethods(evidence: readonly Partial<EvidenceReasonerOptions>[]): { name: string; method: (typeof SERVED_METHODS)[number]; evidence: Partial<EvidenceReasonerOptions> }[] {
  return evidence.flatMap((e, i) => SERVED_METHODS.map((method) => ({ name: i === 0 ? method : `${method} ev${JSON.stringify(e)}`, method, evidence: e })));
}

const MAPPING = { id: 'id', diagnosis: 'diagnosis', notes: ['text'] };

export interface ServedFold {
  buildMs: number;
  features: number;
  /** Per view: notes refused by the diagnose path, by error name. */
  refused: Record<string, number>;
  /** Per method and view: views with no text to ask (not posted; misses). */
  empty: Record<string, number>;
  askMs: number[];
}

export async function runServedFold(o: { config: Config; train: readonly RealNote[]; test: readonly RealNote[]; viewOf: (n: RealNote, v: View) => string; minPatients: number; decompose?: Partial<DecomposeOptions>; evidence?: readonly Partial<EvidenceReasonerOptions>[]; hits: ViewHits; log: (s: string) => void }): Promise<ServedFold> {
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-real-notes-'));
  const graph = new GraphStore(o.config.neo4j);
  await graph.connect();
  try {
    while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
    await writeFile(join(dir, 'notes.jsonl'), o.train.map((n, i) => JSON.stringify({ id: `${i + 1}`, diagnosis: n.diagnosis, text: n.text })).join('\n'));
    await writeFile(join(dir, 'mapping.json'), JSON.stringify(MAPPING));
    const spec = `jsonl:${join(dir, 'notes.jsonl')}`;
    const params = paramsFromFlags({ source: [spec], hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000, minPatients: o.minPatients });
    if (o.decompose) params.decompose = { ...params.decompose, ...o.decompose, emergent: { ...params.decompose.emergent, ...o.decompose.emergent } };
    const source = await openSource(parseSourceSpec(spec, { mapping: join(dir, 'mapping.json') }), { strict: false });
    const t0 = performance.now();
    try {
      await runBuild({ source, dataDir: o.config.dataDir, params }, { graph, embedder: createEmbedder(o.config), indexFactory: FaissVectorIndex, llm: null, noteReader: async () => (await loadNoteReader()).deps });
    } finally {
      await source.close();
    }
    const buildMs = performance.now() - t0;
    const fold: ServedFold = { buildMs, features: 0, refused: {}, empty: {}, askMs: [] };
    for (const { name: method, method: kind, evidence } of servedMethods(o.evidence ?? [{}])) {
      const service = await openQueryService({ graph, dataDir: o.config.dataDir, embedder: createEmbedder(o.config), reasoners: [new EvidenceReasoner(evidence)], recordRetrieval: kind === 'kg-alone' ? 'none' : (o.config.query?.recordRetrieval ?? DEFAULT_RECORD_RETRIEVAL) });
      fold.features = service.snapshot.features.length;
      for (const v of VIEWS) {
        for (const n of o.test) {
          if (isEmptyView(o.viewOf(n, v))) {
            const key = `${method}/${v}`;
            fold.empty[key] = (fold.empty[key] ?? 0) + 1;
            addHit(o.hits[v][method]!, [], n.diagnosis.toLowerCase());
            continue;
          }
          const t = performance.now();
          let names: string[] = [];
          try {
            const res = await service.diagnose(textInput(o.viewOf(n, v), { reasoner: 'evidence' }));
            names = res.differential.map((d) => d.disease.toLowerCase());
          } catch (e) {
            const key = `${method}/${v}: ${(e as Error).name}`;
            fold.refused[key] = (fold.refused[key] ?? 0) + 1;
          }
          fold.askMs.push(performance.now() - t);
          addHit(o.hits[v][method]!, names, n.diagnosis.toLowerCase());
        }
      }
    }
    return fold;
  } finally {
    await graph.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A view with no text to ask: nothing but whitespace (a conclusion-only note). */
export const isEmptyView = (text: string): boolean => text.trim() === '';
