import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { paramsFromFlags } from '../../src/cli/build-command.js';
import { createLogger } from '../../src/logger.js';
import { diagnosisToDisease } from '../../src/query/evaluate-ask.js';
import { openQueryService, textInput, type QueryService } from '../../src/query/query-service.js';
import { DEFAULT_EVIDENCE_OPTIONS, EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import { createReasoners } from '../../src/query/served-query.js';
import { ConcatSource } from '../../src/sources/concat-source.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import { runBuild } from '../../kg-build/pipeline.js';
import type { NotesSet } from './notes-kg-run.js';
import { TfidfKnn } from './tfidf-knn.js';

/**
 * The exam-vignette bench's KG and scoring: `dxgraph build --source ddxplus:<dir> --source
 * jsonl:<vignette notes>` into Neo4j and FAISS (the codes + notes KG of docs/notes.md), then each
 * exam-style vignette through the whole diagnose path as `dxgraph ask` sends it (text only), and
 * through naive Bayes alone (the KG's own knowledge). The baseline is TF-IDF kNN over the same
 * notes and the DDXPlus records' text renderings.
 */
export interface ExamCase {
  id: string;
  condition: string;
  /** 1-based rank of the gold disease per system, null when not ranked. */
  rank: { whole: number | null; kgAlone: number | null; tfidf: number | null };
  top: string[];
  /** Features the whole path read: '+label' present, '-label' absent. */
  read: string[];
  findings: number;
}

const MAPPING = { id: 'id', diagnosis: 'condition', age: 'age', sex: 'sex', notes: ['text'] };

/** Wipes the database and builds the codes + notes KG; returns the build's seconds. */
export async function buildCodesNotesKg(o: { config: Config; graph: GraphStore; ddxplusDir: string; notes: NotesSet['notes']; minPatients: number }): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-exam-'));
  try {
    while (Number((await o.graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
    await writeFile(join(dir, 'notes.jsonl'), o.notes.map((n, i) => JSON.stringify({ ...n, id: `${i + 1}` })).join('\n'));
    await writeFile(join(dir, 'mapping.json'), JSON.stringify(MAPPING));
    const specs = [`ddxplus:${o.ddxplusDir}`, `jsonl:${join(dir, 'notes.jsonl')}`];
    const params = paramsFromFlags({ source: specs, hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000, minPatients: o.minPatients });
    const source = new ConcatSource([
      await openSource(parseSourceSpec(specs[0]!, {}), { strict: false }),
      await openSource(parseSourceSpec(specs[1]!, { mapping: join(dir, 'mapping.json') }), { strict: false }),
    ]);
    const t0 = performance.now();
    try {
      await runBuild({ source, dataDir: o.config.dataDir, params }, { graph: o.graph, embedder: createEmbedder(o.config), indexFactory: FaissVectorIndex, llm: null, noteReader: async () => (await loadNoteReader()).deps });
    } finally {
      await source.close();
    }
    return (performance.now() - t0) / 1000;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function ddxplusTexts(dir: string): Promise<{ text: string; label: string }[]> {
  const source = await openSource(parseSourceSpec(`ddxplus:${dir}`), { strict: false });
  const out: { text: string; label: string }[] = [];
  try {
    for await (const r of source.records()) out.push({ text: r.text, label: r.diagnosis });
  } finally {
    await source.close();
  }
  return out;
}

const rankOf = (ranked: readonly string[], gold: string | null): number | null => {
  const i = gold === null ? -1 : ranked.indexOf(gold);
  return i < 0 ? null : i + 1;
};

/** Every vignette of the sets through the whole path, the KG alone and the baseline. */
export async function askExamSets(o: { config: Config; graph: GraphStore; ddxplusDir: string; notes: NotesSet['notes']; sets: NotesSet[] }): Promise<{ set: string; cases: ExamCase[] }[]> {
  const embedder = createEmbedder(o.config);
  const open = async (kgAlone: boolean): Promise<QueryService> => openQueryService({
    graph: o.graph, dataDir: o.config.dataDir, embedder,
    reasoners: kgAlone ? [new EvidenceReasoner({ ...DEFAULT_EVIDENCE_OPTIONS, voteWeight: 0, keyDifferenceWeight: 0, knnWeight: 0, profileWeight: 0 })] : await createReasoners(o.config, createLogger({ level: 'warn' })),
    ...(o.config.query?.recordRetrieval ? { recordRetrieval: o.config.query.recordRetrieval } : {}),
  });
  const whole = await open(false);
  const alone = await open(true);
  // Gold answers and the baseline's labels are disease ids of the built KG: one label space.
  const idOf = diagnosisToDisease(whole.snapshot);
  const id = (diagnosis: string) => idOf.get(diagnosis.toLowerCase()) ?? `raw:${diagnosis}`;
  const docs = [...(await ddxplusTexts(o.ddxplusDir)), ...o.notes.map((n) => ({ text: n.text, label: n.condition }))].map((d) => ({ text: d.text, label: id(d.label) }));
  const tfidf = TfidfKnn.fit(docs, { k: 10 });
  const out: { set: string; cases: ExamCase[] }[] = [];
  for (const set of o.sets) {
    const cases: ExamCase[] = [];
    for (const v of set.notes) {
      const res = await whole.diagnose(textInput(v.text));
      const kg = await alone.diagnose(textInput(v.text, { reasoner: 'evidence' }));
      const gold = idOf.get(v.condition.toLowerCase()) ?? null;
      cases.push({
        id: v.id,
        condition: v.condition,
        rank: { whole: rankOf(res.differential.map((d) => d.diseaseId), gold), kgAlone: rankOf(kg.differential.map((d) => d.diseaseId), gold), tfidf: rankOf(tfidf.rank(v.text).map((r) => r.label), gold) },
        top: res.differential.slice(0, 3).map((d) => d.disease),
        read: [...new Set(res.trace.matches.map((m) => `${m.polarity === 'present' ? '+' : '-'}${m.featureText}`))],
        findings: res.trace.findings.length,
      });
    }
    out.push({ set: set.name, cases });
  }
  return out;
}
