import { strict as assert } from 'node:assert';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { ddxplusAnswerTypes } from '../../src/followups/ddxplus-hints.js';
import { FollowupEngine } from '../../src/followups/engine.js';
import { FollowupModel } from '../../src/followups/model.js';
import { buildQuestionCatalogue } from '../../src/followups/question-model.js';
import { kgFromRecords, KG_BUILD_IDS } from '../../src/followups/record-kg.js';
import { initialState, recordAnswer, runDialogue, summarize } from '../../src/followups/simulate.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';
import { loadDdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';
import { createSplitAssigner } from '../../src/sources/split.js';

const DIR = 'datasets/ddxplus';

describe('follow-ups: DDXPlus interactive protocol on a small fixed split', function () {
  this.timeout(120_000);
  let engine: FollowupEngine;
  let test: NormalizedRecord[];

  before(async () => {
    const assign = createSplitAssigner({ seed: 7, testFraction: 0.4, stratify: true });
    const train: NormalizedRecord[] = [];
    test = [];
    for await (const r of new DdxplusSource(DIR, { strict: true }).records()) (assign({ id: r.id, diagnosis: r.diagnosis }) === 'train' ? train : test).push(r);
    test = test.slice(0, 50);
    const { kg, demographics } = kgFromRecords(train, KG_BUILD_IDS);
    const model = new FollowupModel(kg, { demographics });
    engine = new FollowupEngine(model, buildQuestionCatalogue(model.features, { hints: ddxplusAnswerTypes((await loadDdxplusDictionary(DIR)).evidences) }));
  });

  it('the simulated patient answers from the record', () => {
    const rec = test[0]!;
    const asked = engine.catalogue.byId.get(`q:${rec.initialFindingCode}`)!;
    assert.notEqual(recordAnswer(asked, rec, KG_BUILD_IDS).type, 'no', 'the chief complaint is in the record');
  });

  it('5 information-gain questions raise top-1 accuracy well above the 0-question accuracy', () => {
    const runs = test.map((rec) => runDialogue(engine, rec, initialState(engine, rec, KG_BUILD_IDS, { demographics: true }), { ranker: 'information-gain', checkpoints: [0, 5], confidence: 1.1, scheme: KG_BUILD_IDS }));
    const row = summarize('information-gain', runs, (id) => KG_BUILD_IDS.diseaseId(test.find((r) => r.id === id)!.diagnosis), [0, 5], 5);
    assert.ok(row.accuracy[5]! >= row.accuracy[0]! + 0.3, `@0 ${row.accuracy[0]} @5 ${row.accuracy[5]}`);
    assert.ok(row.accuracy[5]! >= 0.7, `@5 ${row.accuracy[5]}`);
  });
});
