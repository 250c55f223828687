import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { evaluateAsk } from '../../src/query/evaluate-ask.js';
import { openQueryService, textInput, type QueryService } from '../../src/query/query-service.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { splitFilter } from '../../src/sources/split.js';
import type { ImportSummary } from '../../src/sources/types.js';
import { runBuild, type BuildOutcome } from '../../kg-build/pipeline.js';
import { NO_GATE, SMALL_BUILD_PARAMS } from '../support/ddxplus-build.js';
import { clearDatabase, testGraphStore } from '../support/neo4j.js';

/**
 * The FHIR R4 source on the shipped synthetic set (datasets/fhir-synthetic): a real build of
 * the bundles (75% of the encounters) into the real Neo4j and faiss-node with the default
 * statistical hierarchy, then diagnoses of the held-out 25%. The OMOP test
 * (omop.test.ts) checks that the same patients in OMOP give the same KG.
 */
const BUNDLES = 'datasets/fhir-synthetic/bundles';
const SPLIT = { seed: 3, testFraction: 0.25 };
const hashed = new HashedEmbedder();
const embedder = { id: hashed.id, embeddings: hashed };

describe('FHIR R4 source (synthetic bundles, real Neo4j, real faiss-node)', function () {
  this.timeout(600_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'fhir-int-'));
  let store: GraphStore;
  let outcome: BuildOutcome;
  let summary: ImportSummary;
  let service: QueryService;
  const heldOut: NormalizedRecord[] = [];

  before(async () => {
    store = await testGraphStore();
    await clearDatabase({ store });
    const source = await openSource(parseSourceSpec(`fhir:${BUNDLES}`), { strict: false });
    try {
      outcome = await runBuild(
        { source, dataDir, include: splitFilter({ ...SPLIT, part: 'train' }), params: { ...SMALL_BUILD_PARAMS, ...NO_GATE, split: SPLIT } },
        { graph: store, embedder, indexFactory: FaissVectorIndex, llm: null },
      );
      summary = source.summary();
    } finally {
      await source.close();
    }
    const test = splitFilter({ ...SPLIT, part: 'test' });
    const again = await openSource(parseSourceSpec(`fhir:${BUNDLES}`), { strict: false });
    for await (const r of again.records()) if (test(r)) heldOut.push(r);
    service = await openQueryService({ graph: store, dataDir, embedder });
  });

  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('builds the four tiers in Neo4j from the encounters; bad rows reported by reason', async () => {
    const c = (await store.read('build/counts'))[0]!;
    process.stderr.write(`    [fhir] ${outcome.scan.recordCount} train encounters (${outcome.scan.excluded} held out) -> ${c.diseases} diseases, ${c.ehrFeatures} features, ${c.manifestations} manifestations, ${c.subcategories} subcategories, ${c.categories} categories\n`);
    assert.equal(outcome.scan.recordCount + outcome.scan.excluded, summary.recordsEmitted);
    assert.equal(Number(c.diseases), 6);
    assert.ok(Number(c.subcategories) >= 2 && Number(c.categories) >= 1);
    assert.ok(Number(c.ehrFeatures) >= 30 && Number(c.manifestations) > Number(c.ehrFeatures));
    assert.deepEqual(summary.skippedByReason, { 'visit-without-condition': 1, 'missing-person': 1 });
    assert.deepEqual(summary.factsSkipped?.byReason, { 'fact-without-visit': 1, 'unparseable-value': 1, 'note-without-visit': 1 });
    const orphan = await store.runText("MATCH (d:Disease) WHERE d.icd10 IS NULL RETURN count(d) AS n", {}, 'READ');
    assert.equal(Number(orphan[0]?.n), 0, 'every disease carries the ICD-10-CM code of its FHIR coding');
  });

  it('labs and vitals are binned in the graph: at most three feature nodes per LOINC code, values as L/N/H or tertiles', async () => {
    const rows = await store.runText("MATCH (f:EhrFeature) WHERE f.code STARTS WITH 'LOINC:' RETURN f.code AS code, collect(f.valueCode) AS values", {}, 'READ');
    const byCode = new Map(rows.map((r) => [String(r.code), (r.values as string[]).sort()]));
    assert.ok(byCode.size >= 7);
    for (const [code, values] of byCode) {
      if (values.every((v) => v.startsWith('SNOMED:'))) continue; // coded results (dipstick, smoking status)
      assert.ok(values.length <= 3 && values.every((v) => /^(L|N|H|T1|T2|T3)$/.test(v)), `${code}: ${values.join(',')}`);
    }
    assert.deepEqual(byCode.get('LOINC:8310-5'), ['T1', 'T2', 'T3'], 'body temperature (no reference range) by tertiles');
    assert.ok(byCode.get('LOINC:6690-3')!.includes('H'), 'WBC by its reference range');
  });

  it('diagnoses the held-out encounters from their text and from free text', async () => {
    const r = await evaluateAsk(service, heldOut);
    process.stderr.write(`    [fhir] held-out encounters: top-1 ${(r.top1 * 100).toFixed(1)}%, top-3 ${(r.top3 * 100).toFixed(1)}% (n=${r.n})\n`);
    assert.ok(r.n >= 25 && r.unknownDiagnosis === 0);
    assert.ok(r.top1 >= 0.6, `top-1 ${r.top1}`);
    assert.ok(r.top3 >= r.top1);
    const res = await service.diagnose(textInput('Burning pain when passing urine and going very often. Leukocyte esterase positive. No cough.'));
    assert.equal(res.differential[0]?.disease, 'Urinary tract infectious disease');
    assert.ok(res.trace.matches.some((m) => m.featureId.startsWith('feat:')));
  });

  it('DocumentReference and DiagnosticReport text arrive as the notes of their encounter, never in the record text', async () => {
    const src = await openSource(parseSourceSpec(`fhir:${BUNDLES}`), { strict: false });
    const byEncounter = new Map<string, NormalizedRecord>();
    for await (const r of src.records()) byEncounter.set(r.id.split(':').pop()!, r);
    const notes = (e: string) => byEncounter.get(e)?.notes?.map((n) => [n.origin, n.title]);
    assert.deepEqual(notes('e9'), [['DocumentReference/n1', 'Progress note']]);
    assert.deepEqual(notes('e6'), [['DocumentReference/n2', 'Nursing triage note']], 'no encounter named: placed by its date on the patient\'s encounter');
    assert.deepEqual(notes('e12'), [['DiagnosticReport/n3', '12-lead ECG report'], ['DiagnosticReport/n3 conclusion', '12-lead ECG report: conclusion']]);
    assert.deepEqual(notes('e10'), [['DocumentReference/n5', 'Discharge summary']]);
    assert.match(byEncounter.get('e9')!.notes![0]!.text, /^PROGRESS NOTE {2}Pt: Rosa Alvarez/);
    assert.equal(byEncounter.get('e10')!.notes![0]!.text.split('\n')[0], 'Emergency department discharge summary', 'HTML read as its text');
    assert.ok(!byEncounter.get('e10')!.notes![0]!.text.includes('<'));
    assert.equal([...byEncounter.values()].filter((r) => r.notes !== undefined).length, 4);
    assert.ok([...byEncounter.values()].every((r) => !/Rosa|Okafor|ST depression/.test(r.text)));
    assert.equal(src.summary().factsSkipped?.byReason['note-without-visit'], 1, 'a note of no encounter and no encounter on its date is reported');
  });

  it('the ndjson bulk export of the same patients gives the same records as the bundles', async () => {
    const read = async (dir: string) => {
      const src = await openSource(parseSourceSpec(`fhir:${dir}`), { strict: false });
      const out: NormalizedRecord[] = [];
      for await (const r of src.records()) out.push({ ...r, id: r.id.split(':').pop()!, patient: r.patient?.split(':').pop() ?? null, location: '' });
      return out;
    };
    const [bundles, ndjson] = [await read(BUNDLES), await read('datasets/fhir-synthetic/ndjson')];
    assert.equal(bundles.length, 162);
    assert.deepEqual(ndjson, bundles);
  });
});
