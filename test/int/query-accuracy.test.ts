import assert from 'node:assert/strict';
import { NO_GATE, readDdxplusRecords, SMALL_BUILD_PARAMS } from '../support/ddxplus-build.js';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { buildDir, currentPointer } from '../../src/domain/artifacts.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { ArtifactError, ConfigError } from '../../src/errors.js';
import { evaluateAsk } from '../../src/query/evaluate-ask.js';
import { nearTies } from '../../src/query/diagnose.js';
import { openQueryService, textInput, type QueryService } from '../../src/query/query-service.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { splitFilter } from '../../src/sources/split.js';
import { runBuild } from '../../kg-build/pipeline.js';
import { clearDatabase, testGraphStore } from '../support/neo4j.js';

/**
 * The query pipeline against the real build: DDXPlus sample, 60/40 patient-level split,
 * train part built into real Neo4j + real faiss-node, test part held out.
 */
const SPLIT = { seed: 1, testFraction: 0.4 };
const hashed = new HashedEmbedder();
const embedder = { id: hashed.id, embeddings: hashed };

const part = (which: 'train' | 'test'): Promise<NormalizedRecord[]> => readDdxplusRecords(splitFilter({ ...SPLIT, part: which }));

describe('query pipeline (real Neo4j, real faiss-node, DDXPlus 60/40 split)', function () {
  this.timeout(600_000);
  let store: GraphStore;
  let service: QueryService;
  let test: NormalizedRecord[];
  const dataDir = mkdtempSync(join(tmpdir(), 'query-int-'));

  before(async () => {
    store = await testGraphStore();
    await clearDatabase({ store });
    const source = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
    try {
      await runBuild(
        {
          source, dataDir, include: splitFilter({ ...SPLIT, part: 'train' }),
          params: { ...SMALL_BUILD_PARAMS, ...NO_GATE, batchSize: 5000, split: SPLIT },
        },
        { graph: store, embedder, indexFactory: FaissVectorIndex, llm: null },
      );
    } finally {
      await source.close();
    }
    service = await openQueryService({ graph: store, dataDir, embedder });
    test = await part('test');
  });

  it('accuracy floor: the first 80 held-out text renderings give the right disease first', async () => {
    const r = await evaluateAsk(service, test.slice(0, 80));
    process.stderr.write(`    [query] held-out subset: top-1 ${(r.top1 * 100).toFixed(1)}%, top-3 ${(r.top3 * 100).toFixed(1)}%, ${r.meanMs.toFixed(0)} ms/query\n`);
    assert.equal(r.n, 80);
    assert.ok(r.top1 >= 0.93, `top-1 ${r.top1}`);
    assert.ok(r.top3 >= r.top1);
  });

  it('returns the whole trace: findings, matches above t, votes, differences KG, records, follow-ups, timings', async () => {
    const rec = test[3]!;
    const res = await service.diagnose(textInput(rec.text, { topK: 7, topM: 2 }));
    const t = res.trace;
    assert.ok(t.findings.length >= rec.findings.length, 'one finding per clause at least');
    assert.ok(t.matches.length > 0 && t.matches.every((m) => m.similarity > 0.55));
    assert.ok(t.votes.length > 0 && t.chosenSubcategory?.subcategoryId === t.votes[0]!.subcategoryId);
    // The chosen subcategory and those within DIFFERENCES_NEAR_TIE of its votes (ties share the choice).
    const chosen = new Set(nearTies({ winner: t.chosenSubcategory, candidates: t.votes.slice(0, 3) }).map((v) => v.subcategoryId));
    const subDiseases = new Set(service.snapshot.diseases.filter((d) => chosen.has(d.subcategoryId)).map((d) => d.id));
    assert.ok(t.differencesKg.length > 0 && t.differencesKg.every((x) => subDiseases.has(x.subjectId!)), 'triples of the chosen (and near-tied) subcategories only');
    assert.ok(t.differencesKg.some((x) => service.snapshot.diseases.find((d) => d.id === x.subjectId)?.subcategoryId === t.chosenSubcategory!.subcategoryId), 'the chosen subcategory is among them');
    assert.ok(t.differencesKg.some((x) => x.relation === 'HAS_MANIFESTATION' && x.weight !== null && x.weight > 0));
    assert.equal(t.retrieved.length, 7);
    assert.ok(t.retrieved.every((r, i) => i === 0 || r.similarity <= t.retrieved[i - 1]!.similarity));
    const reported = new Set(t.matches.map((m) => m.featureId));
    assert.ok(res.followUps.length > 0 && res.followUps.every((q) => !reported.has(q.featureId) && q.ranker === 'information-gain'));
    for (const stage of ['decompose', 'match', 'vote', 'differencesKg', 'retrieve', 'followUps', 'reason', 'total']) assert.ok(t.timingsMs[stage]! >= 0, stage);
    assert.equal(res.reasoner, 'evidence');
  });

  it('DDXPlus evidence codes match feature nodes exactly and diagnose too', async () => {
    const rec = test.find((r) => r.findings.length > 8)!;
    const codes = rec.findings.filter((f) => f.polarity === 'present').map((f) => (f.valueCode ? `${f.code}_@_${f.valueCode}` : f.code)).join(' ');
    const res = await service.diagnose(textInput(codes));
    assert.ok(res.trace.matches.length > 0 && res.trace.matches.every((m) => m.similarity === 1));
    assert.equal(res.differential[0]!.disease.toLowerCase(), rec.diagnosis.toLowerCase());
  });

  // Issue 17: clinician and lay free text through the concept layer, negations included.
  const FREE_TEXT: { text: string; gold: string; negated: string[] }[] = [
    { text: 'Sharp chest pain, worse when breathing in, better leaning forward. No cough.', gold: 'Pericarditis', negated: ['E_201'] },
    { text: '61M smoker, crushing CP radiating to L arm, diaphoretic, SOB. No fever.', gold: 'Possible NSTEMI / STEMI', negated: ['E_91'] },
    { text: '45F, sudden hives all over after eating shrimp, lips swelling, wheezing, feels faint. No fever.', gold: 'Anaphylaxis', negated: ['E_91'] },
    { text: '34F c/o earache R ear x2 days, fever 38.5C, recent cold', gold: 'Acute otitis media', negated: [] },
    { text: '72M with COPD, more SOB and productive cough with green sputum, wheezing, denies chest pain', gold: 'Acute COPD exacerbation / infection', negated: ['E_53'] },
    { text: "I get out of breath climbing stairs, my ankles are swollen and I have to sleep on 3 pillows. I don't have a fever.", gold: 'Acute pulmonary edema', negated: ['E_91'] },
  ];

  it('free text: clinician and lay descriptions give the right disease in the top 3, and no negated finding is matched as present', async () => {
    for (const c of FREE_TEXT) {
      const res = await service.diagnose(textInput(c.text, { reasoner: 'evidence' }));
      const top3 = res.differential.slice(0, 3).map((d) => d.disease);
      assert.ok(top3.includes(c.gold), `${c.text} → ${top3.join(' | ')}`);
      const present = new Set(res.trace.matches.filter((m) => m.polarity === 'present').map((m) => service.snapshot.features[service.snapshot.featureIndex.get(m.featureId)!]!.code));
      for (const code of c.negated) assert.ok(!present.has(code), `${c.text}: negated ${code} matched as present`);
      assert.equal(res.insufficient, null, c.text);
    }
  });

  it("free text: the README example matches the pain, its character, what worsens and relieves it and the negated cough, and ranks pericarditis first", async () => {
    const res = await service.diagnose(textInput('Sharp chest pain, worse when breathing in, better leaning forward. No cough.', { reasoner: 'evidence' }));
    const codeOf = (m: { featureId: string }) => service.snapshot.features[service.snapshot.featureIndex.get(m.featureId)!]!;
    const present = res.trace.matches.filter((m) => m.polarity === 'present').map(codeOf);
    assert.ok(present.some((f) => f.code === 'E_53'), 'pain');
    assert.ok(present.some((f) => f.code === 'E_54' && f.valueText === 'sharp'), 'pain character: sharp');
    assert.ok(present.some((f) => f.code === 'E_55'), 'pain location');
    assert.ok(present.some((f) => /breathe in deeply/.test(f.question ?? '')), 'worse when breathing in');
    assert.ok(present.some((f) => /lean forward/.test(f.question ?? '')), 'better leaning forward');
    assert.ok(res.trace.matches.some((m) => m.polarity === 'absent' && codeOf(m).code === 'E_201'), 'no cough, as absent');
    assert.equal(res.differential[0]!.disease, 'Pericarditis');
    // Every match says why, and every free-text finding where it sits in the text.
    assert.ok(res.trace.matches.every((m) => typeof m.via === 'string' && m.via.length > 0));
    assert.ok(res.trace.findings.every((f) => f.span && f.span.end > f.span.start));
  });

  it('free text: gibberish is flagged insufficient instead of a confident list', async () => {
    const res = await service.diagnose(textInput('asdf qwer zxcv', { reasoner: 'evidence' }));
    assert.equal(res.insufficient?.reason, 'no-finding-matched');
    assert.ok(res.followUps.length > 0, 'the questions to ask instead');
  });

  it('refuses a build made with another embedder, and names a corrupt index file', async () => {
    await assert.rejects(openQueryService({ graph: store, dataDir, embedder: { id: 'hashed-ngram-v1:64', embeddings: new HashedEmbedder({ dim: 64 }) } }), (e: unknown) => e instanceof ConfigError && /embedder/.test(e.message));
    const copy = mkdtempSync(join(tmpdir(), 'query-int-corrupt-'));
    cpSync(dataDir, copy, { recursive: true });
    const buildId = readFileSync(currentPointer(copy), 'utf8').trim();
    const file = join(buildDir(copy, buildId), 'features.faiss');
    writeFileSync(file, readFileSync(file).subarray(0, 100));
    await assert.rejects(openQueryService({ graph: store, dataDir: copy, embedder }), (e: unknown) => e instanceof ArtifactError && e.message.includes('features.faiss'));
  });
});
