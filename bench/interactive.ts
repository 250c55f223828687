/**
 * Follow-up benchmark on DDXPlus (issue 6): the interactive protocol (top-1 after
 * 0/1/3/5/10/20 questions per ranker) and MedRAG's masking protocol, on a 60/40
 * patient-level split. The prevalence model is estimated in memory from the training
 * patients (no Neo4j needed). Usage: npx tsx bench/interactive.ts [--limit N] [--alpha A] [--json]
 */
import { parseArgs } from 'node:util';
import { FollowupEngine } from '../src/followups/engine.js';
import { runMasking, MASK_RATES } from '../src/followups/masking.js';
import { FollowupModel } from '../src/followups/model.js';
import { buildQuestionCatalogue } from '../src/followups/question-model.js';
import { RANKER_NAMES, type RankerName } from '../src/followups/ranker.js';
import { kgFromRecords, KG_BUILD_IDS } from '../src/followups/record-kg.js';
import { initialState, runDialogue, summarize, type AccuracyRow } from '../src/followups/simulate.js';
import { ddxplusAnswerTypes } from '../src/followups/ddxplus-hints.js';
import type { NormalizedRecord } from '../src/domain/record.js';
import { DdxplusSource } from '../src/sources/ddxplus/ddxplus-source.js';
import { loadDdxplusDictionary } from '../src/sources/ddxplus/dictionary.js';
import { createSplitAssigner } from '../src/sources/split.js';

const CHECKPOINTS = [0, 1, 3, 5, 10, 20];
const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: 'datasets/ddxplus' },
    seed: { type: 'string', default: '7' },
    limit: { type: 'string', default: '100000' },
    alpha: { type: 'string', default: '0.1' },
    confidence: { type: 'string', default: '0.9' },
    'no-demographics': { type: 'boolean', default: false },
    'skip-masking': { type: 'boolean', default: false },
    rankers: { type: 'string', default: RANKER_NAMES.join(',') },
    json: { type: 'boolean', default: false },
  },
});

const dir = values.dir!;
const hints = ddxplusAnswerTypes((await loadDdxplusDictionary(dir)).evidences);
// 60/40 patient-level split, stratified by diagnosis (the sources' split predicate).
const assign = createSplitAssigner({ seed: Number(values.seed), testFraction: 0.4, stratify: true });
const train: NormalizedRecord[] = [];
const all: NormalizedRecord[] = [];
for await (const rec of new DdxplusSource(dir, { strict: false }).records()) {
  if (assign({ id: rec.id, diagnosis: rec.diagnosis }) === 'train') train.push(rec);
  else all.push(rec);
}
const test = all.slice(0, Number(values.limit));
const scheme = KG_BUILD_IDS;
const { kg, demographics } = kgFromRecords(train, scheme);
const model = new FollowupModel(kg, { alpha: Number(values.alpha), demographics });
const engine = new FollowupEngine(model, buildQuestionCatalogue(model.features, { hints }));
const truth = new Map(test.map((r) => [r.id, scheme.diseaseId(r.diagnosis)]));
const truthOf = (id: string): string => truth.get(id)!;
const useDemo = !values['no-demographics'];
const confidence = Number(values.confidence);

const rows: AccuracyRow[] = [];
for (const ranker of values.rankers!.split(',') as RankerName[]) {
  const t0 = Date.now();
  const runs = test.map((rec) => runDialogue(engine, rec, initialState(engine, rec, scheme, { demographics: useDemo }), { ranker, checkpoints: CHECKPOINTS, confidence, scheme }));
  rows.push(summarize(ranker, runs, truthOf, CHECKPOINTS, Math.max(...CHECKPOINTS)));
  if (!values.json) console.error(`${ranker}: ${test.length} patients in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
}
const masking = values['skip-masking'] ? [] : MASK_RATES.flatMap((rate) => (['information-gain', 'sigma'] as const).map((ranker) => runMasking(engine, test, { rate, ranker, followUps: [0, 5, 10], scheme, truth: truthOf, demographics: useDemo })));

if (values.json) {
  console.log(JSON.stringify({ train: train.length, test: test.length, diseases: model.diseases.length, questions: engine.catalogue.questions.length, interactive: rows, masking }, null, 2));
} else {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`.padStart(7);
  console.log(`DDXPlus dev: ${train.length} train / ${test.length} test patients, ${model.diseases.length} diseases, ${engine.catalogue.questions.length} questions, alpha ${values.alpha}, demographics ${useDemo}`);
  console.log(`ranker            ${CHECKPOINTS.map((k) => `@${k}`.padStart(7)).join('')}  mean-q-to-${confidence}  acc-at-stop`);
  for (const r of rows) console.log(`${r.ranker.padEnd(18)}${CHECKPOINTS.map((k) => pct(r.accuracy[k]!)).join('')}  ${r.meanQuestionsToConfidence.toFixed(2).padStart(10)}  ${pct(r.accuracyAtConfidence)}`);
  if (masking.length) console.log('\nmasking (MedRAG B.3): mask rate, ranker, top-1 with all findings / after masking / +5 / +10 follow-ups');
  for (const m of masking) console.log(`${`${Math.round(m.rate * 100)}%`.padEnd(6)}${m.ranker.padEnd(18)}${pct(m.unmasked)}${[0, 5, 10].map((k) => pct(m.accuracy[k]!)).join('')}`);
}
