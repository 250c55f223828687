import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { openQueryService, textInput } from '../../src/query/query-service.js';
import { DEFAULT_EVIDENCE_OPTIONS, EvidenceReasoner, type EvidenceReasonerOptions } from '../../src/reasoners/evidence-reasoner.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { ConcatSource } from '../../src/sources/concat-source.js';
import { paramsFromFlags } from '../../src/cli/build-command.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import { runBuild } from '../../kg-build/pipeline.js';
import type { NotesSet } from './notes-kg-run.js';
import { DEFAULT_RECORD_RETRIEVAL, RECORD_RETRIEVALS, type RecordRetrieval } from '../../src/query/retrieve-records.js';
import { diagnosisToDisease } from '../../src/query/evaluate-ask.js';
import { freeTextCalibration, type FreeTextCalibration } from './free-text-calibration.js';

/**
 * The notes KG as a user gets it (issue 24): `dxgraph build --source jsonl:notes --mapping` into
 * Neo4j and FAISS, asked through the query service's whole diagnose path, once per reasoner
 * setting of the ablation (naive Bayes alone, + vote, + key differences, + kNN over the record
 * index, which embeds what each note says). Top-1 / top-3 per held-out set and setting.
 */
export const ABLATION: { name: string; weights: Partial<EvidenceReasonerOptions>; retrieval?: RecordRetrieval }[] = [
  { name: 'naive Bayes alone', weights: { voteWeight: 0, keyDifferenceWeight: 0, knnWeight: 0, profileWeight: 0 } },
  { name: '+ vote', weights: { keyDifferenceWeight: 0, knnWeight: 0, profileWeight: 0 } },
  { name: '+ key differences', weights: { knnWeight: 0, profileWeight: 0 } },
  ...RECORD_RETRIEVALS.map((retrieval) => ({ name: `+ kNN, ${retrieval} retrieval`, weights: { profileWeight: 0 }, retrieval })),
  { name: '+ disease profiles (all, defaults)', weights: {} },
  { name: 'naive Bayes + disease profiles', weights: { voteWeight: 0, keyDifferenceWeight: 0, knnWeight: 0 } },
];

export interface ServedScore {
  set: string;
  n: number;
  /** Per ablation row: [top-1, top-3] counts. */
  rows: { name: string; top1: number; top3: number }[];
}

const MAPPING = { id: 'id', diagnosis: 'condition', age: 'age', sex: 'sex', notes: ['text'] };

/**
 * `calibrateOn`: labelled notes never in the KG and never among the tests (e.g. a dev set) to fit
 * the build's text calibration on (issue 26 for a KG learnt from notes); every test set is then
 * scored before and after, with the defaults' reasoner. `withSources`: other sources built into the
 * same KG before the notes (e.g. `ddxplus:datasets/ddxplus`: the DDXPlus codes + notes KG).
 */
export async function runServedNotes(o: { config: Config; train: NotesSet[]; tests: NotesSet[]; minPatients: number; log: (s: string) => void; extra?: typeof ABLATION; calibrateOn?: string[]; withSources?: string[] }): Promise<{ scores: ServedScore[]; buildSeconds: number; calibration?: FreeTextCalibration }> {
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-notes-served-'));
  const graph = new GraphStore(o.config.neo4j);
  await graph.connect();
  try {
    while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
    const notes = o.train.flatMap((s) => s.notes);
    await writeFile(join(dir, 'notes.jsonl'), notes.map((n, i) => JSON.stringify({ ...n, id: `${i + 1}` })).join('\n'));
    await writeFile(join(dir, 'mapping.json'), JSON.stringify(MAPPING));
    const spec = `jsonl:${join(dir, 'notes.jsonl')}`;
    const params = paramsFromFlags({ source: [...(o.withSources ?? []), spec], hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000, minPatients: o.minPatients });
    const parts = [];
    for (const other of o.withSources ?? []) parts.push(await openSource(parseSourceSpec(other, {}), { strict: false }));
    parts.push(await openSource(parseSourceSpec(spec, { mapping: join(dir, 'mapping.json') }), { strict: false }));
    const source = parts.length === 1 ? parts[0]! : new ConcatSource(parts);
    const t0 = performance.now();
    try {
      await runBuild({ source, dataDir: o.config.dataDir, params }, { graph, embedder: createEmbedder(o.config), indexFactory: FaissVectorIndex, llm: null, noteReader: async () => (await loadNoteReader()).deps });
    } finally {
      await source.close();
    }
    const buildSeconds = (performance.now() - t0) / 1000;
    o.log(`notes KG built through Neo4j from ${notes.length} notes in ${buildSeconds.toFixed(1)} s`);
    const scores: ServedScore[] = o.tests.map((t) => ({ set: t.name, n: t.notes.length, rows: [] }));
    for (const row of [...ABLATION, ...(o.extra ?? [])]) {
      const service = await openQueryService({ graph, dataDir: o.config.dataDir, embedder: createEmbedder(o.config), reasoners: [new EvidenceReasoner({ ...DEFAULT_EVIDENCE_OPTIONS, ...row.weights })], recordRetrieval: row.retrieval ?? o.config.query?.recordRetrieval ?? DEFAULT_RECORD_RETRIEVAL });
      for (const [i, t] of o.tests.entries()) {
        let top1 = 0;
        let top3 = 0;
        // By disease id: a condition spelt as the source spells it ('Larygospasm') is the KG disease it is an alias of.
        const gold = diagnosisToDisease(service.snapshot);
        for (const n of t.notes) {
          const res = await service.diagnose(textInput(n.text, { reasoner: 'evidence' }));
          const ids = res.differential.map((d) => d.diseaseId);
          const truth = gold.get(n.condition.toLowerCase());
          if (truth !== undefined && ids[0] === truth) top1++;
          if (truth !== undefined && ids.slice(0, 3).includes(truth)) top3++;
        }
        scores[i]!.rows.push({ name: row.name, top1, top3 });
      }
    }
    if (!o.calibrateOn?.length) return { scores, buildSeconds };
    const open = (calibrated: boolean) => openQueryService({ graph, dataDir: o.config.dataDir, embedder: createEmbedder(o.config), reasoners: [new EvidenceReasoner(DEFAULT_EVIDENCE_OPTIONS)], recordRetrieval: o.config.query?.recordRetrieval ?? DEFAULT_RECORD_RETRIEVAL, ...(calibrated ? {} : { calibrated: false }) });
    const uncalibrated = await open(false);
    const calibration = await freeTextCalibration({
      config: o.config, calibrateOn: o.calibrateOn, goldOf: diagnosisToDisease(uncalibrated.snapshot), log: o.log,
      sets: o.tests.map((t) => ({ path: t.name, vignettes: t.notes })), open: () => open(true),
    }, uncalibrated);
    return { scores, buildSeconds, calibration };
  } finally {
    await graph.close();
    await rm(dir, { recursive: true, force: true });
  }
}
