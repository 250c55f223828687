import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { SourceRowError } from '../../src/errors.js';
import { openQueryService, textInput } from '../../src/query/query-service.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import type { ImportSummary, RecordSource } from '../../src/sources/types.js';
import { runBuild } from '../../kg-build/pipeline.js';
import { noteVocabularies } from '../../kg-build/note-vocabularies.js';
import { readNotes } from '../../src/clinical-text/read-notes.js';
import { tertileBounds } from '../../src/sources/binning/bins.js';
import { NO_GATE, SMALL_BUILD_PARAMS } from '../support/ddxplus-build.js';
import { clearDatabase, testGraphStore } from '../support/neo4j.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

/**
 * The OMOP CDM v5.4 source against a real PostgreSQL loaded with the CDM DDL and the shipped
 * synthetic set (datasets/omop-synthetic), built into the real Neo4j with the real pipeline,
 * and compared with the FHIR build of the same patients (datasets/fhir-synthetic).
 */
const OMOP_DIR = 'datasets/omop-synthetic';
const TABLES = ['person', 'visit_occurrence', 'condition_occurrence', 'measurement', 'observation', 'concept', 'concept_relationship', 'note', 'note_nlp'];
const hashed = new HashedEmbedder();
const embedder = { id: hashed.id, embeddings: hashed };

async function loadOmop(url: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query('CREATE SCHEMA cdm; SET search_path TO cdm');
    await client.query(readFileSync(join(OMOP_DIR, 'ddl/omop-cdm-5.4-subset.postgresql.sql'), 'utf8'));
    for (const table of TABLES) {
      const [header, ...rows] = parse(readFileSync(join(OMOP_DIR, 'data', `${table}.csv`)), { relaxColumnCount: false }) as string[][];
      for (let i = 0; i < rows.length; i += 200) {
        const batch = rows.slice(i, i + 200);
        // Empty CSV field = NULL, as COPY ... CSV reads it (load.sql).
        const params = batch.flat().map((v) => (v === '' ? null : v));
        const tuples = batch.map((_, b) => `(${header!.map((__, c) => `$${b * header!.length + c + 1}`).join(', ')})`);
        // Quoted: note_nlp has a column named "offset".
        await client.query(`INSERT INTO cdm.${table} (${header!.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, params);
      }
    }
  } finally {
    await client.end();
  }
}

async function collect(src: RecordSource): Promise<{ records: NormalizedRecord[]; summary: ImportSummary }> {
  const records: NormalizedRecord[] = [];
  try {
    for await (const r of src.records()) records.push(r);
  } finally {
    await src.close();
  }
  return { records, summary: src.summary() };
}

/** Findings from OMOP note_nlp (coded, or the lexical variant, uncoded): FHIR has no NLP output to give them. */
const fromNoteNlp = (f: NormalizedRecord['findings'][number]) => f.code === null || f.provenance?.origin.startsWith('note_nlp ') === true;

/** The record without its note_nlp findings (and their lines of the text). */
function withoutNoteNlp(r: NormalizedRecord): NormalizedRecord {
  const dropped = new Set(r.findings.filter(fromNoteNlp).map((f) => f.text));
  return { ...r, findings: r.findings.filter((f) => !fromNoteNlp(f)), text: r.text.split('\n').filter((l) => !dropped.has(l)).join('\n') };
}

/**
 * What the same patients must give whatever the format: no ids, locations or OMOP concept ids,
 * notes by title and text (their origins name the table or resource), no note_nlp findings.
 */
const comparable = (rec: NormalizedRecord) => {
  const r = withoutNoteNlp(rec);
  return {
    ...r, id: null, location: null, patient: null,
    findings: r.findings.map((f) => ({ ...f, provenance: f.provenance ? { vocabulary: f.provenance.vocabulary, conceptCode: f.provenance.conceptCode } : null })),
    notes: r.notes?.map((n) => ({ title: n.title, text: n.text })),
  };
};

/** A source whose records lose their note_nlp findings, so the OMOP build compares with the FHIR one. */
function withoutNoteNlpSource(src: RecordSource): RecordSource {
  return {
    description: src.description,
    async *records() {
      for await (const r of src.records()) yield withoutNoteNlp(r);
    },
    summary: () => src.summary(),
    close: () => src.close(),
  };
}

/** The KG in Neo4j as comparable rows: diseases, features by code, manifestations with counts. */
async function kgSnapshot(store: GraphStore) {
  const q = (text: string) => store.runText(text, {}, 'READ');
  return {
    diseases: await q('MATCH (d:Disease) RETURN d.id AS id, d.name AS name, d.icd10 AS icd10, d.recordCount AS n ORDER BY id'),
    features: await q('MATCH (f:EhrFeature) RETURN f.id AS id, f.code AS code, f.valueCode AS value, f.text AS text, f.answerType AS answerType ORDER BY id'),
    manifestations: await q('MATCH (d:Disease)-[m:HAS_MANIFESTATION]->(f:Feature) RETURN d.id AS d, f.code AS code, f.valueCode AS value, m.count AS count ORDER BY d, code, value'),
    hierarchy: await q('MATCH (d:Disease)-[:IS_A]->(s:Subcategory)-[:IS_A]->(c:Category) RETURN d.id AS d, s.name AS s, c.name AS c ORDER BY d'),
  };
}

async function build(store: GraphStore, source: string, dataDir: string, wrap: (s: RecordSource) => RecordSource = (s) => s) {
  await clearDatabase({ store });
  const src = wrap(await openSource(parseSourceSpec(source), { strict: false }));
  try {
    return await runBuild(
      { source: src, dataDir, params: { ...SMALL_BUILD_PARAMS, ...NO_GATE, hierarchy: 'icd10' } },
      { graph: store, embedder, indexFactory: FaissVectorIndex, llm: null },
    );
  } finally {
    await src.close();
  }
}

describe('OMOP CDM v5.4 source (real PostgreSQL, real Neo4j, the synthetic set)', function () {
  this.timeout(600_000);
  let server: TestPostgres;
  let omopUrl: string;
  let store: GraphStore;
  const dataDir = mkdtempSync(join(tmpdir(), 'omop-int-'));

  before(async () => {
    server = await startTestPostgres();
    await loadOmop(server.url);
    omopUrl = `omop:${server.url}?schema=cdm`;
    store = await testGraphStore();
  });

  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('one record per visit; bad visits and facts counted by reason, never dropped silently', async () => {
    const visits = parse(readFileSync(join(OMOP_DIR, 'data/visit_occurrence.csv')), { columns: true }) as Array<Record<string, string>>;
    const { records, summary } = await collect(await openSource(parseSourceSpec(omopUrl), { strict: false }));
    assert.equal(summary.rowsRead, visits.length);
    assert.equal(summary.recordsEmitted + summary.skipped, summary.rowsRead);
    assert.equal(records.length, summary.recordsEmitted);
    assert.deepEqual(summary.skippedByReason, { 'missing-person': 1, 'visit-without-condition': 1 });
    assert.deepEqual(summary.factsSkipped?.byReason, { 'fact-without-visit': 1, 'unparseable-value': 1, 'note-without-visit': 1 });
    assert.ok(records.every((r) => r.id.startsWith('omop:postgres:') && r.age !== null && r.sex !== null));
    // Labels: SNOMED condition names with the ICD-10-CM code, from the source concept or 'Maps to'.
    const labels = new Map(records.map((r) => [r.diagnosis, r.icd10]));
    assert.deepEqual([...labels].sort(), [
      ['Acute exacerbation of asthma', 'J45.901'], ['Acute non-ST segment elevation myocardial infarction', 'I21.4'], ['Gastroesophageal reflux disease', 'K21.9'],
      ['Influenza', 'J11.1'], ['Pneumonia', 'J18.9'], ['Urinary tract infectious disease', 'N39.0'],
    ]);
    // History (conditions before the visit) are antecedent findings with their provenance.
    const history = records.flatMap((r) => r.findings.filter((f) => f.antecedent === true));
    assert.ok(history.length > 20 && history.every((f) => f.code?.startsWith('SNOMED:') && f.provenance?.conceptId !== null && f.text.startsWith('history of ')));
    assert.ok(records.some((r) => r.findings.some((f) => f.polarity === 'absent')), 'No answers are absent findings');
  });

  it('reads the note table by visit (or by date when no visit is named) and turns note_nlp rows into findings', async () => {
    const { records } = await collect(await openSource(parseSourceSpec(omopUrl), { strict: false }));
    const byVisit = new Map(records.map((r) => [r.id.split(':').pop(), r]));
    const noteRows = parse(readFileSync(join(OMOP_DIR, 'data/note.csv')), { columns: true }) as Array<Record<string, string>>;
    const textOf = (id: string) => noteRows.find((n) => n.note_id === id)!.note_text;
    assert.deepEqual(byVisit.get('9')?.notes, [{ origin: 'note 1', title: 'Progress note', text: textOf('1') }]);
    assert.deepEqual(byVisit.get('6')?.notes, [{ origin: 'note 2', title: 'Nursing triage note', text: textOf('2') }], 'no visit_occurrence_id: placed on the visit of its person and date');
    assert.deepEqual(byVisit.get('12')?.notes?.map((n) => [n.origin, n.title]), [['note 3', '12-lead ECG report'], ['note 4', '12-lead ECG report: conclusion']]);
    assert.deepEqual(byVisit.get('10')?.notes?.map((n) => n.title), ['Discharge summary']);
    assert.equal(records.filter((r) => r.notes !== undefined).length, 4);
    assert.ok(records.every((r) => !/Rosa|MRN|Okafor|ST depression/.test(r.text)), 'the record text never carries a note');
    const nlp = byVisit.get('9')!.findings.filter(fromNoteNlp);
    assert.deepEqual(nlp.map((f) => [f.text, f.polarity, f.code, f.antecedent]), [
      ['history of Asthma', 'present', 'SNOMED:195967001', true],
      ['Productive cough', 'present', 'SNOMED:28743005', false],
      ['Chest pain: absent', 'absent', 'SNOMED:29857009', false],
      ['night sweat', 'present', null, false],
    ]);
    // A term no concept names is an emergent candidate: its stem key, the phrase as its form, and not in the record text.
    assert.deepEqual(nlp[3]!.concept, { vocabulary: 'emergent-candidate', forms: ['night sweats'] });
    assert.ok(!/night sweat/i.test(byVisit.get('9')!.text));
    assert.deepEqual(nlp[1]!.provenance, { vocabulary: 'SNOMED', conceptCode: '28743005', conceptId: 2000000025, sourceValue: 'productive cough', origin: 'note_nlp 1' });
    assert.ok(byVisit.get('9')!.text.split('\n').includes('Chest pain: absent'), 'NLP findings are findings: in the text like the others');
  });

  it('names its own concepts for the note reader: observations and conditions, each as its findings code it', async () => {
    const src = await openSource(parseSourceSpec(omopUrl), { strict: false });
    try {
      const concepts = await src.codedConcepts!();
      const wheezing = concepts.find((c) => c.code === 'SNOMED:56018004');
      assert.ok(wheezing, 'the Wheezing observation concept');
      assert.equal(wheezing.label, 'Wheezing');
      assert.ok(wheezing.forms.includes('Wheezing'));
      const { records } = await collect(await openSource(parseSourceSpec(omopUrl), { strict: false }));
      const coded = new Set(records.flatMap((r) => r.findings.map((f) => f.code)));
      assert.ok(concepts.every((c) => coded.has(c.code) || /^SNOMED:|^ICD10CM:|^LOINC:/.test(c.code)), 'codes spelled as the findings spell them');
      assert.ok(concepts.some((c) => coded.has(c.code)), 'and some of them are findings of the records');
      // The bins of its numeric codes too, as the records carry them: thirds where the values have no
      // range, low / normal / high where they have one; the FHIR rendering of the set gives the same.
      const bins = (cs: typeof concepts) => cs.filter((c) => c.bin).map((c) => `${c.code}=${c.bin!.valueCode}`);
      assert.deepEqual(bins(concepts).filter((b) => b.startsWith('LOINC:9279-1') || b.startsWith('LOINC:2708-6')), ['LOINC:2708-6=L', 'LOINC:2708-6=N', 'LOINC:2708-6=H', 'LOINC:9279-1=T1', 'LOINC:9279-1=T2', 'LOINC:9279-1=T3']);
      const recordBins = new Set(records.flatMap((r) => r.findings.filter((f) => /^(?:[LNH]|T[123])$/.test(f.valueCode ?? '')).map((f) => `${f.code}=${f.valueCode}`)));
      assert.ok([...recordBins].every((b) => bins(concepts).includes(b)), 'every bin a record carries is a concept');
      const fhir = await openSource(parseSourceSpec('fhir:datasets/fhir-synthetic/bundles'), { strict: false });
      assert.deepEqual(bins(await fhir.codedConcepts!()), bins(concepts));
      await fhir.close();
      // So a note's measured values are read into the visit's bins at build time, as at query time.
      const vocab = noteVocabularies({ ddxplus: null, lexicon: null, phenotypes: [], sourceConcepts: concepts });
      const reading = readNotes([{ origin: 'note 1', title: null, text: 'Wheezing. RR 30, HR 64.' }], { vocabulary: vocab.snapshot, lexicon: null, prepare: (text) => ({ text, leftOut: {}, scrubbed: {} }) });
      const hr = concepts.filter((c) => c.code === 'LOINC:8867-4').find((c) => { const b = tertileBounds(c.bin!.valueText)!; return (b.low === null || 64 > b.low) && (b.high === null || 64 <= b.high); });
      assert.deepEqual(reading.findings.filter((f) => f.code?.startsWith('LOINC:')).map((f) => `${f.code}=${f.valueCode}`).sort(), [`LOINC:8867-4=${hr!.bin!.valueCode}`, 'LOINC:9279-1=T3']);
      assert.deepEqual(reading.candidates, [], 'no number became an emergent phrase');
    } finally {
      await src.close();
    }
  });

  it('reads a CDM without note tables, or with empty ones (as the OHDSI Synthea export ships them); note titles from the class concept; unasserted NLP terms reported', async () => {
    const client = new pg.Client(server.url);
    await client.connect();
    const mini = `omop:${server.url}?schema=mini`;
    try {
      await client.query('CREATE SCHEMA mini');
      for (const table of TABLES.slice(0, 7)) await client.query(`CREATE TABLE mini.${table} (LIKE cdm.${table})`);
      await client.query(`INSERT INTO mini.concept SELECT * FROM cdm.concept;
        INSERT INTO mini.person SELECT * FROM cdm.person WHERE person_id = 6;
        INSERT INTO mini.visit_occurrence SELECT * FROM cdm.visit_occurrence WHERE visit_occurrence_id = 9;
        INSERT INTO mini.condition_occurrence SELECT * FROM cdm.condition_occurrence WHERE visit_occurrence_id = 9`);
      const none = await collect(await openSource(parseSourceSpec(mini), { strict: true }));
      assert.equal(none.records.length, 1);
      assert.equal(none.records[0]!.notes, undefined);
      await client.query('CREATE TABLE mini.note (LIKE cdm.note); CREATE TABLE mini.note_nlp (LIKE cdm.note_nlp)');
      const empty = await collect(await openSource(parseSourceSpec(mini), { strict: true }));
      assert.deepEqual(empty.records, none.records);
      assert.deepEqual(empty.summary.factsSkipped?.byReason, {});
      await client.query(`INSERT INTO mini.concept VALUES (2000000900, 'Emergency department note', 'Meas Value', 'LOINC', 'Doc Kind', 'S', '34111-5', '1970-01-01', '2099-12-31', NULL);
        INSERT INTO mini.note (note_id, person_id, note_date, note_type_concept_id, note_class_concept_id, note_title, note_text, encoding_concept_id, language_concept_id, visit_occurrence_id)
          VALUES (7, 6, '2023-05-28', 32817, 2000000900, '', 'Mother has a rash. Cough.', 0, 0, 9), (8, 6, '2023-05-28', 32817, 0, NULL, 'x', 0, 0, 404);
        INSERT INTO mini.note_nlp (note_nlp_id, note_id, lexical_variant, note_nlp_concept_id, nlp_date, term_exists, term_modifiers)
          VALUES (1, 7, 'rash', 0, '2023-05-29', 'N', 'negated=false,subject=mother'), (2, 7, 'wet cough', 999, '2023-05-29', 'Y', NULL), (3, 8, 'x', 0, '2023-05-29', 'Y', NULL)`);
      const withNotes = await collect(await openSource(parseSourceSpec(mini), { strict: false }));
      assert.deepEqual(withNotes.records[0]!.notes, [{ origin: 'note 7', title: 'Emergency department note', text: 'Mother has a rash. Cough.' }], 'an empty note_title: the note class concept names it');
      assert.deepEqual(withNotes.records[0]!.findings.filter((f) => f.code === null).map((f) => f.text), ['wet cough'], 'a concept not in the vocabulary: the lexical variant');
      assert.deepEqual(withNotes.summary.factsSkipped?.byReason, { 'term-not-about-patient': 1, 'fact-of-unknown-visit': 2 });
      await assert.rejects(collect(await openSource(parseSourceSpec(mini), { strict: true })), SourceRowError);
    } finally {
      await client.query('DROP SCHEMA IF EXISTS mini CASCADE').catch(() => undefined);
      await client.end();
    }
  });

  it('bins numeric labs and vitals: a few values per code, never one feature per value', async () => {
    const { records } = await collect(await openSource(parseSourceSpec(omopUrl), { strict: false }));
    const measurements = parse(readFileSync(join(OMOP_DIR, 'data/measurement.csv')), { columns: true }) as Array<Record<string, string>>;
    const rawValues = new Map<string, Set<string>>();
    for (const m of measurements) if (m.value_as_number !== '') rawValues.set(m.measurement_source_value!, (rawValues.get(m.measurement_source_value!) ?? new Set()).add(m.value_as_number!));
    const binned = new Map<string, Set<string>>();
    for (const f of records.flatMap((r) => r.findings)) if (f.code?.startsWith('LOINC:') && f.valueCode !== null && !f.valueCode.includes(':')) binned.set(f.code, (binned.get(f.code) ?? new Set()).add(f.valueCode));
    for (const loinc of ['6690-3', '1988-5', '2708-6', '10839-9']) {
      assert.ok((rawValues.get(loinc)?.size ?? 0) > 10, `${loinc} has many distinct values`);
      assert.ok([...binned.get(`LOINC:${loinc}`)!].every((v) => ['L', 'N', 'H'].includes(v)), `${loinc} binned by its reference range`);
    }
    for (const loinc of ['8310-5', '8867-4', '9279-1']) assert.deepEqual([...binned.get(`LOINC:${loinc}`)!].sort(), ['T1', 'T2', 'T3'], `${loinc} (no range) binned by tertiles`);
    assert.ok(records.some((r) => r.findings.some((f) => f.code === 'LOINC:5799-2' && f.valueCode === 'SNOMED:10828004')), 'coded results keep their value concept');
  });

  it('strict mode stops at the first bad visit; a bad schema or label rule is a clear error', async () => {
    await assert.rejects(collect(await openSource(parseSourceSpec(omopUrl), { strict: true })), (e: unknown) => e instanceof SourceRowError);
    await assert.rejects(collect(await openSource(parseSourceSpec(`omop:${server.url}?schema=nothere`), { strict: false })), /OMOP query failed on schema nothere/);
    assert.throws(() => parseSourceSpec(`omop:${server.url}?label=latest`), /label must be one of primary, earliest/);
  });

  it('gives the same records as the FHIR bundles and the FHIR bulk export of the same patients', async () => {
    const omop = await collect(await openSource(parseSourceSpec(omopUrl), { strict: false }));
    for (const dir of ['datasets/fhir-synthetic/bundles', 'datasets/fhir-synthetic/ndjson']) {
      const fhir = await collect(await openSource(parseSourceSpec(`fhir:${dir}`), { strict: false }));
      assert.equal(fhir.records.length, omop.records.length, dir);
      assert.deepEqual(fhir.records.map(comparable), omop.records.map(comparable), dir);
      assert.deepEqual(fhir.summary.skippedByReason, omop.summary.skippedByReason, dir);
      assert.deepEqual(fhir.summary.factsSkipped?.byReason, omop.summary.factsSkipped?.byReason, dir);
    }
  });

  it('builds the KG into Neo4j (ICD-10 hierarchy), diagnoses from it, and the FHIR build gives the same KG', async () => {
    // Without the note_nlp findings, which the FHIR set has no resource for.
    const outcome = await build(store, omopUrl, join(dataDir, 'omop'), withoutNoteNlpSource);
    const omopKg = await kgSnapshot(store);
    const counts = (await store.read('build/counts'))[0]!;
    process.stderr.write(`    [omop] ${outcome.scan.recordCount} records -> ${counts.diseases} diseases, ${counts.ehrFeatures} features, ${counts.manifestations} manifestations, ${counts.subcategories} subcategories, ${counts.categories} categories\n`);
    assert.equal(outcome.scan.recordCount, 162);
    assert.equal(Number(counts.diseases), 6);
    assert.equal(omopKg.diseases.length, 6);
    assert.ok(omopKg.diseases.every((d) => typeof d.icd10 === 'string'), 'every disease carries its ICD-10-CM code');
    assert.ok(omopKg.hierarchy.some((h) => /J09-J18|influenza and pneumonia/i.test(String(h.s))), 'pneumonia and influenza grouped by ICD-10 block');
    assert.equal(Number(counts.ehrFeatures), omopKg.features.length);
    assert.ok(omopKg.features.every((f) => f.answerType === (f.value === null ? 'yes-no' : 'one-of')), 'answer types kept on the feature nodes');
    // Labs binned: at most three features per numeric code in the graph.
    const perCode = new Map<string, number>();
    for (const f of omopKg.features) perCode.set(String(f.code), (perCode.get(String(f.code)) ?? 0) + 1);
    for (const code of ['LOINC:6690-3', 'LOINC:1988-5', 'LOINC:8310-5', 'LOINC:8867-4']) assert.ok((perCode.get(code) ?? 0) >= 2 && perCode.get(code)! <= 3, `${code}: ${perCode.get(code)} features`);
    assert.ok(Number(counts.manifestations) > omopKg.features.length);

    const service = await openQueryService({ graph: store, dataDir: join(dataDir, 'omop'), embedder });
    const res = await service.diagnose(textInput('Crushing chest pain with excessive sweating and nausea. Troponin I high. No fever.'));
    assert.equal(res.differential[0]?.disease, 'Acute non-ST segment elevation myocardial infarction');
    // Values written in a note fall in the bins the visits' measurement rows were binned into:
    // heart and breathing rates by their thirds (no range in the rows), SpO2 and CRP by direction.
    const vitals = await service.diagnose(textInput('Productive cough and fever. RR 30, HR 124, SpO2 86% on room air, CRP 160 mg/L.'));
    const measured = new Map(vitals.trace.matches.filter((m) => m.via?.startsWith('measured')).map((m) => [omopKg.features.find((f) => f.id === m.featureId)?.code, omopKg.features.find((f) => f.id === m.featureId)?.value]));
    assert.deepEqual(Object.fromEntries(measured), { 'LOINC:9279-1': 'T3', 'LOINC:8867-4': 'T3', 'LOINC:2708-6': 'L', 'LOINC:1988-5': 'H' });
    assert.ok(['Pneumonia', 'Influenza'].some((d) => vitals.differential[0]!.disease.includes(d)), vitals.differential[0]!.disease);
    // A value inside the limits names no abnormality, but falls in its third all the same.
    const calm = await service.diagnose(textInput('Wheeze and breathlessness at night. HR 64.'));
    const hr = calm.trace.matches.find((m) => m.via?.startsWith('measured heart rate 64'));
    assert.equal(omopKg.features.find((f) => f.id === hr?.featureId)?.code, 'LOINC:8867-4');

    for (const dir of ['datasets/fhir-synthetic/bundles', 'datasets/fhir-synthetic/ndjson']) {
      await build(store, `fhir:${dir}`, join(dataDir, dir.split('/').pop()!));
      assert.deepEqual(await kgSnapshot(store), omopKg, `${dir}: same diseases, features, manifestations and hierarchy`);
    }
  });
});
