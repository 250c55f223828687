import assert from 'node:assert/strict';
import { readDdxplusRecords, SMALL_BUILD_PARAMS } from '../support/ddxplus-build.js';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { buildDir } from '../../src/domain/artifacts.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { InputError } from '../../src/errors.js';
import { diagnosisToDisease } from '../../src/query/evaluate-ask.js';
import { createQueryService, openQueryService, textInput, type QueryService } from '../../src/query/query-service.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { splitFilter } from '../../src/sources/split.js';
import { runBuild, type BuildOutcome } from '../../kg-build/pipeline.js';
import { clearDatabase, testGraphStore } from '../support/neo4j.js';
import { initialEvidenceText } from '../../bench/gate-figures.js';

/**
 * The information-density gate end to end: a real build of the DDXPlus sample's train part
 * (real Neo4j, real faiss-node) trains and calibrates the gate; the query service loads it.
 * A dense description (a held-out record's full text rendering) is answered directly, a
 * one-line complaint is warned with follow-up questions.
 */
const SPLIT = { seed: 1, testFraction: 0.4 };
const hashed = new HashedEmbedder();
const embedder = { id: hashed.id, embeddings: hashed };

const part = (which: 'train' | 'test'): Promise<NormalizedRecord[]> => readDdxplusRecords(splitFilter({ ...SPLIT, part: which }));

describe('information-density gate (real build of the DDXPlus sample, real Neo4j and faiss-node)', function () {
  this.timeout(600_000);
  let store: GraphStore;
  let outcome: BuildOutcome;
  let gated: QueryService;
  let test: NormalizedRecord[];
  const dataDir = mkdtempSync(join(tmpdir(), 'gate-int-'));

  before(async () => {
    store = await testGraphStore();
    await clearDatabase({ store });
    const source = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
    try {
      outcome = await runBuild(
        {
          source, dataDir, include: splitFilter({ ...SPLIT, part: 'train' }),
          params: { ...SMALL_BUILD_PARAMS, batchSize: 5000, split: SPLIT },
        },
        { graph: store, embedder, indexFactory: FaissVectorIndex, llm: null },
      );
    } finally {
      await source.close();
    }
    gated = await openQueryService({ graph: store, dataDir, embedder, gate: { mode: 'auto', theta1: null, theta2: null } });
    test = await part('test');
  });

  it('the build trains the classifier on a bounded sample, calibrates thresholds and names both in the manifest', async () => {
    const m = outcome.manifest;
    const dir = buildDir(dataDir, outcome.buildId);
    assert.ok(m.gate && m.chunkIndex, JSON.stringify(outcome.gate?.skipped));
    assert.ok(existsSync(join(dir, m.gate.classifier)) && existsSync(join(dir, m.chunkIndex.file)));
    const onDisk = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    assert.deepEqual(onDisk.gate, m.gate);
    const metrics = JSON.parse(readFileSync(join(dir, m.gate.metrics), 'utf8'));
    assert.equal(metrics.annotation.examples, 300, 'the default sample');
    assert.ok(metrics.heldOut.sentences > 100 && metrics.heldOut.accuracy > metrics.heldOut.majorityBaseline, JSON.stringify(metrics.heldOut));
    const t = m.gate.thresholds!;
    assert.ok(0 <= t.theta2 && t.theta2 <= t.theta1 && t.theta1 <= 1, JSON.stringify(t));
    assert.ok(m.chunkIndex.size > outcome.scan.recordCount * 5, 'one chunk per finding line');
    process.stderr.write(`    [gate] build ${Object.values(outcome.timings).reduce((a, b) => a + b, 0)} ms (gate stage ${outcome.timings.gate} ms); thresholds θ1 ${t.theta1.toFixed(3)} θ2 ${t.theta2.toFixed(3)}\n`);
  });

  it('a dense description (the held-out record with the most findings, full rendering) is answered directly and right', async () => {
    const dense = [...test].sort((a, b) => b.findings.length - a.findings.length || (a.id < b.id ? -1 : 1))[0]!;
    const res = await gated.diagnose(textInput(dense.text, { reasoner: 'evidence' }));
    const g = res.trace.gate!;
    assert.equal(g.decision, 'direct', `I_norm ${g.score}`);
    assert.ok(g.sentences.length > 15 && g.warning === null);
    assert.deepEqual([res.trace.retrieved.length, res.trace.differencesKg.length, res.trace.timingsMs.retrieve, res.trace.timingsMs.differencesKg], [0, 0, undefined, undefined]);
    assert.equal(res.differential[0]!.diseaseId, diagnosisToDisease(gated.snapshot).get(dense.diagnosis.toLowerCase()));
  });

  it('most held-out full renderings go direct; none of their initial-evidence renderings does', async () => {
    const sample = test.slice(0, 25);
    let direct = 0;
    for (const r of sample) {
      if ((await gated.diagnose(textInput(r.text, { reasoner: 'evidence' }))).trace.gate!.decision === 'direct') direct++;
      const initial = await gated.diagnose(textInput(initialEvidenceText(r), { reasoner: 'evidence' }));
      assert.notEqual(initial.trace.gate!.decision, 'direct', `initial evidence of ${r.id}: I_norm ${initial.trace.gate!.score}`);
    }
    assert.ok(direct >= 15, `${direct} of 25 direct`);
  });

  for (const complaint of ['I have had a fever since yesterday.', 'Do you have a cough? yes']) {
    it(`a one-line complaint ("${complaint}") gets the full path, the warning and follow-up questions`, async () => {
      const res = await gated.diagnose(textInput(complaint, { reasoner: 'evidence' }));
      const g = res.trace.gate!;
      assert.equal(g.decision, 'retrieve-warn', `I_norm ${g.score}`);
      assert.match(g.warning!, /insufficient/);
      assert.ok(!g.warning!.includes(complaint));
      assert.ok(res.trace.retrieved.length > 0 && res.trace.timingsMs.retrieve! >= 0, 'the retrieval path ran');
      assert.ok(res.followUps.length >= 3, 'follow-up questions');
      const reported = new Set(res.trace.matches.map((m) => m.featureId));
      assert.ok(res.followUps.every((q) => !reported.has(q.featureId)), 'never asks what was said');
    });
  }

  it("gate 'off' per request gives the classic trace; FIND retrieval mode serves records by chunk counts", async () => {
    const rec = test[0]!;
    const off = await gated.diagnose(textInput(rec.text, { gate: 'off', reasoner: 'evidence' }));
    assert.equal(off.trace.gate, null);
    assert.ok(off.trace.retrieved.length > 0 && off.trace.differencesKg.length > 0);
    const find = await gated.diagnose(textInput(rec.text, { gate: 'off', retrieval: 'find', topK: 5, reasoner: 'evidence' }));
    assert.equal(find.trace.retrieved.length, 5);
    assert.ok(find.trace.retrieved.every((r) => gated.artifacts.records.has(r.id)));
    const want = diagnosisToDisease(gated.snapshot).get(rec.diagnosis.toLowerCase());
    assert.ok(find.trace.retrieved.some((r) => r.diseaseId === want), 'FIND retrieves records of the right disease');
  });

  it("a build without a classifier: 'auto' runs as off, 'on' is a clear error", async () => {
    const plain = await openQueryService({ graph: store, dataDir, embedder, gate: { mode: 'auto', theta1: null, theta2: null } });
    const noGate = { ...plain.artifacts, gate: { classifier: null, thresholds: null, chunkIndex: null } };
    const svc = createQueryService({ graph: store, snapshot: plain.snapshot, artifacts: noGate, embedder, gate: { mode: 'auto', theta1: null, theta2: null } });
    assert.equal((await svc.diagnose(textInput(test[1]!.text))).trace.gate, null);
    await assert.rejects(svc.diagnose(textInput(test[1]!.text, { gate: 'on' })), (e: unknown) => e instanceof InputError && e.field === 'options.gate');
  });
});
