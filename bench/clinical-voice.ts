/**
 * Clinical-voice bench (issue 48 items 2-3): on the KG from DDXPlus codes as bench/free-text.ts
 * builds it (every shipped record, a dedicated Neo4j), every vignette of the labelled and blind
 * sets goes through `diagnose` as `dxgraph ask` sends it; every question and label a clinician
 * would read in those answers is checked against the voice's forms (src/presentation/voice-checks.ts),
 * and so is every question a consultation session can ask on that KG (the whole catalogue, with
 * its options) and every Feature's caption in Neo4j. Prints the counts, the worst examples, the
 * manifestations shown under 30% of their disease's records and follow-ups per answer.
 *
 *   nice -n 5 node --import tsx bench/clinical-voice.ts                 # all sets
 *   nice -n 5 node --import tsx bench/clinical-voice.ts --limit 20      # the first 20 of each set
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbedder } from '../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { paramsFromFlags } from '../src/cli/build-command.js';
import { loadConfig } from '../src/config.js';
import { FollowupModel } from '../src/followups/model.js';
import { buildQuestionCatalogue } from '../src/followups/question-model.js';
import { followupKgFromSnapshot } from '../src/followups/snapshot-kg.js';
import { createLogger } from '../src/logger.js';
import { openQueryService, textInput } from '../src/query/query-service.js';
import { createReasoners } from '../src/query/served-query.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';
import { runBuild } from '../kg-build/pipeline.js';
import { VoiceAudit } from './lib/clinical-voice-audit.js';
import { parseVignettes, readDdxplusVocabulary } from './lib/free-text-set.js';
import { benchNeo4j } from './lib/neo4j.js';

const SETS = ['dev', 'dev-b', 'dev-c', 'dev-d', 'dev-e', 'cal', 'test', 'test-b', 'test-c'].map((s) => `datasets/vignettes/${s}.jsonl`);

const { values: a } = parseArgs({
  options: {
    sets: { type: 'string', default: SETS.join(',') },
    ddxplus: { type: 'string', default: 'datasets/ddxplus' },
    limit: { type: 'string', default: '0' },
    'neo4j-uri': { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    'data-dir': { type: 'string', default: '.dxgraph-bench/clinical-voice' },
    json: { type: 'string' },
  },
});
const log = (s: string) => process.stderr.write(`[clinical-voice] ${s}\n`);
const limit = Number(a.limit);
const base = loadConfig();
const neo = await benchNeo4j({ uri: a['neo4j-uri'] ?? process.env.NEO4J_URI ?? null });
try {
  const config = { ...base, neo4j: { ...base.neo4j, uri: neo.uri, ...(neo.dedicated ? { password: '' } : {}) }, dataDir: resolve(a['data-dir']!), llm: { ...base.llm, enabled: false } };
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  try {
    if (!a['skip-build']) {
      const t0 = performance.now();
      while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
      // The CLI's own flag rules and defaults, as bench/free-text.ts builds (every shipped record).
      const params = paramsFromFlags({ source: [`ddxplus:${a.ddxplus}`], hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000 });
      const source = await openSource(parseSourceSpec(`ddxplus:${a.ddxplus}`), { strict: false });
      try {
        await runBuild({ source, dataDir: config.dataDir, params }, { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null });
      } finally {
        await source.close();
      }
      log(`KG built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const service = await openQueryService({ graph, dataDir: config.dataDir, embedder: createEmbedder(config), reasoners: await createReasoners(config, createLogger({ level: 'warn' })) });
    const audit = new VoiceAudit();
    // Every question a session can ask on this KG, with its options (sessions build the same catalogue).
    const model = new FollowupModel(followupKgFromSnapshot(service.snapshot));
    const catalogue = buildQuestionCatalogue(model.features, { counts: model });
    for (const q of catalogue.questions) {
      audit.question('session question', q.text);
      if (q.answerType !== 'number' && q.answerType !== 'yes-no') for (const o of q.options) audit.label('session question option', o.label);
    }
    // Neo4j Browser captions: Feature.label where the build wrote one, else its text (the old caption).
    const captions = await graph.read('bench/feature-captions');
    for (const r of captions) audit.label('Neo4j Feature caption', String(r.caption));
    const vocab = await readDdxplusVocabulary(a.ddxplus!);
    let answers = 0;
    for (const path of a.sets!.split(',').map((s) => s.trim()).filter(Boolean)) {
      const all = parseVignettes(await readFile(path, 'utf8'), vocab, path);
      const vignettes = limit > 0 ? all.slice(0, limit) : all;
      for (const v of vignettes) audit.answer(await service.diagnose(textInput(v.text)));
      answers += vignettes.length;
      log(`${path}: ${vignettes.length} answers`);
    }
    process.stdout.write(`clinical voice over ${answers} answers, ${catalogue.questions.length} session questions, ${captions.length} Feature captions\n${audit.report()}\n`);
    process.stdout.write(`summary: ${JSON.stringify(audit.summary())}\n`);
    if (a.json) await writeFile(a.json, JSON.stringify({ answers, summary: audit.summary(), offences: [...audit.offences.values()] }, null, 2));
  } finally {
    await graph.close();
  }
} finally {
  await neo.stop();
}
