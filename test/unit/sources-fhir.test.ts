import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { SourceRowError } from '../../src/errors.js';
import { datePart, icd10Of, normalizeReference, preferredConcept, systemOf, vocabularyOf } from '../../src/sources/fhir/fhir-codes.js';
import { FhirSource } from '../../src/sources/fhir/fhir-source.js';
import { htmlToText } from '../../src/sources/fhir/fhir-notes.js';
import { describeSourceSpec, parseSourceSpec } from '../../src/sources/source-spec.js';

const SCT = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const cc = (system: string, code: string, display: string) => ({ coding: [{ system, code, display }] });
const category = (system: string, code: string) => [{ coding: [{ system, code }] }];
const CAT = 'http://terminology.hl7.org/CodeSystem/condition-category';

async function read(dir: string, strict = false): Promise<{ records: NormalizedRecord[]; src: FhirSource }> {
  const src = new FhirSource(dir, { strict });
  const records: NormalizedRecord[] = [];
  for await (const r of src.records()) records.push(r);
  return { records, src };
}

describe('FHIR R4 source (files in a temp dir)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fhir-unit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('normalises references, dates and codings onto OMOP vocabulary ids', () => {
    assert.equal(normalizeReference('https://x.org/fhir/Patient/12/_history/3'), 'Patient/12');
    assert.equal(normalizeReference('urn:uuid:abc'), 'urn:uuid:abc');
    assert.equal(normalizeReference('12'), null);
    assert.equal(datePart('2024-03-01T10:00:00Z'), '2024-03-01');
    assert.equal(datePart('2024'), null);
    const code = { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'j18.9' }, { system: SCT, code: '233604007', display: 'Pneumonia' }] };
    assert.deepEqual(preferredConcept(code, ['SNOMED']), { vocabulary: 'SNOMED', code: '233604007', name: 'Pneumonia', conceptId: null });
    assert.equal(icd10Of(code), 'J18.9');
    assert.equal(preferredConcept({ coding: [{ system: 'urn:local', code: 'x' }] }, ['SNOMED'])?.vocabulary, 'urn:local');
  });

  it('reads a transaction bundle with urn:uuid references: label by Encounter.diagnosis rank, history, interpretation bins', async () => {
    const ref = (n: string) => ({ reference: `urn:uuid:${n}` });
    const entry = (n: string, resource: object) => ({ fullUrl: `urn:uuid:${n}`, resource, request: { method: 'POST', url: (resource as { resourceType: string }).resourceType } });
    writeFileSync(join(dir, 'b.json'), JSON.stringify({
      resourceType: 'Bundle', type: 'transaction', entry: [
        entry('p', { resourceType: 'Patient', id: 'p1', gender: 'male', birthDate: '1960-05' }),
        entry('e', { resourceType: 'Encounter', id: 'e1', status: 'finished', subject: ref('p'), period: { start: '2024-04-02T08:00:00Z' }, diagnosis: [{ condition: ref('c2'), rank: 1 }, { condition: ref('c1'), rank: 2 }] }),
        entry('c1', { resourceType: 'Condition', id: 'c1', subject: ref('p'), encounter: ref('e'), category: category(CAT, 'encounter-diagnosis'), code: cc(SCT, '38341003', 'Hypertensive disorder'), onsetDateTime: '2024-04-01' }),
        entry('c2', { resourceType: 'Condition', id: 'c2', subject: ref('p'), encounter: ref('e'), category: category(CAT, 'encounter-diagnosis'), code: { coding: [{ system: SCT, code: '401314000', display: 'NSTEMI' }, { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I21.4' }] }, onsetDateTime: '2024-04-02' }),
        entry('c3', { resourceType: 'Condition', id: 'c3', subject: ref('p'), category: category(CAT, 'problem-list-item'), code: cc(SCT, '44054006', 'Diabetes mellitus type 2'), onsetDateTime: '2015-01-01' }),
        entry('c4', { resourceType: 'Condition', id: 'c4', subject: ref('p'), category: category(CAT, 'problem-list-item'), code: cc(SCT, '13645005', 'COPD'), onsetDateTime: '2025-01-01' }),
        entry('o1', { resourceType: 'Observation', id: 'o1', status: 'final', subject: ref('p'), encounter: ref('e'), code: cc(LOINC, '10839-9', 'Troponin I'), valueQuantity: { value: 2.5, code: 'ng/mL' }, interpretation: [{ coding: [{ code: 'HH' }] }] }),
        entry('o2', { resourceType: 'Observation', id: 'o2', status: 'final', subject: ref('p'), encounter: ref('e'), code: cc(SCT, '29857009', 'Chest pain'), valueBoolean: true }),
        entry('o3', { resourceType: 'Observation', id: 'o3', status: 'final', subject: ref('p'), encounter: ref('e'), code: cc(SCT, '386661006', 'Fever'), valueCodeableConcept: cc(SCT, '373067005', 'No') }),
      ],
    }));
    const { records, src } = await read(dir);
    assert.equal(records.length, 1);
    const r = records[0]!;
    assert.deepEqual([r.diagnosis, r.icd10, r.age, r.sex], ['NSTEMI', 'I21.4', 63, 'M']);
    const codes = (pred: (f: NormalizedRecord['findings'][number]) => boolean) => r.findings.filter(pred).map((f) => f.code).sort();
    assert.deepEqual(codes((f) => f.antecedent === true), ['SNOMED:38341003', 'SNOMED:44054006'], 'earlier problem-list item + secondary diagnosis; not the later one');
    assert.deepEqual(r.findings.filter((f) => f.code === 'LOINC:10839-9').map((f) => f.valueCode), ['H']);
    // Beside its bin, the lab is the phenotype it shows: the HPO feature "troponin I 2.5" in a note is read as.
    assert.deepEqual(r.findings.filter((f) => f.code === 'HP:0410173').map((f) => [f.text, f.concept?.vocabulary]), [['Increased circulating troponin I concentration', 'HPO']]);
    assert.deepEqual(r.findings.filter((f) => f.code === 'SNOMED:386661006').map((f) => f.polarity), ['absent']);
    assert.equal(src.summary().factsSkipped?.count, 0);
  });

  it('ndjson bulk export; bad JSON, unsupported bundles and resources, missing links: counted by reason', async () => {
    const lines = (xs: object[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
    writeFileSync(join(dir, 'Patient.ndjson'), lines([{ resourceType: 'Patient', id: 'a', gender: 'female', birthDate: '1990-01-01' }]) + '{not json\n');
    writeFileSync(join(dir, 'Encounter.ndjson'), lines([
      { resourceType: 'Encounter', id: 'e1', status: 'finished', subject: { reference: 'Patient/a' }, period: { start: '2024-01-10' } },
      { resourceType: 'Encounter', id: 'e2', status: 'finished', subject: { reference: 'Patient/a' } },
      { resourceType: 'Encounter', id: 'e3', status: 'finished', subject: { reference: 'Patient/zz' }, period: { start: '2024-01-10' } },
      { resourceType: 'Encounter', id: 'e4', status: 'finished', subject: { reference: 'Patient/a' }, period: { start: '2024-02-10' } },
    ]));
    writeFileSync(join(dir, 'Condition.ndjson'), lines([
      { resourceType: 'Condition', id: 'c1', subject: { reference: 'Patient/a' }, encounter: { reference: 'Encounter/e1' }, code: cc(SCT, '68566005', 'UTI') },
      { resourceType: 'Condition', id: 'c3', subject: { reference: 'Patient/zz' }, encounter: { reference: 'Encounter/e3' }, code: cc(SCT, '68566005', 'UTI') },
      { resourceType: 'Condition', id: 'c9', subject: { reference: 'Patient/a' }, code: { text: 'uncoded' } },
    ]));
    writeFileSync(join(dir, 'Observation.ndjson'), lines([
      { resourceType: 'Observation', id: 'o1', status: 'final', encounter: { reference: 'Encounter/e1' }, code: cc(LOINC, '8310-5', 'Body temperature'), valueQuantity: { value: 38.2, code: 'Cel' } },
      { resourceType: 'Observation', id: 'o2', status: 'final', encounter: { reference: 'Encounter/e1' }, code: cc(LOINC, '1988-5', 'CRP'), valueString: 'see note' },
      { resourceType: 'Observation', id: 'o3', status: 'final', code: cc(LOINC, '1988-5', 'CRP'), valueQuantity: { value: 3 } },
      { resourceType: 'Observation', id: 'o4', status: 'final', encounter: { reference: 'Encounter/e404' }, code: cc(LOINC, '1988-5', 'CRP'), valueQuantity: { value: 3 } },
      { resourceType: 'Observation', status: 'final', encounter: { reference: 'Encounter/e1' }, code: cc(LOINC, '1988-5', 'CRP') },
    ]));
    writeFileSync(join(dir, 'Procedure.ndjson'), lines([{ resourceType: 'Procedure', id: 'x', status: 'completed', subject: { reference: 'Patient/a' } }]));
    writeFileSync(join(dir, 'doc.json'), JSON.stringify({ resourceType: 'Bundle', type: 'document', entry: [] }));
    writeFileSync(join(dir, 'notes.txt'), 'ignored: not *.json / *.ndjson');
    const { records, src } = await read(dir);
    assert.deepEqual(records.map((r) => r.id), [`fhir:${dir.split('/').pop()}:e1`]);
    assert.deepEqual(records[0]!.findings.map((f) => [f.code, f.valueCode]), [['LOINC:8310-5', 'T1']], 'a lone value is its own tertile');
    const s = src.summary();
    assert.deepEqual([s.rowsRead, s.recordsEmitted, s.skipped], [4, 1, 3]);
    assert.deepEqual(s.skippedByReason, { 'visit-without-date': 1, 'missing-person': 1, 'visit-without-condition': 1 });
    assert.deepEqual(s.factsSkipped?.byReason, {
      'bad-json': 1, 'unmapped-concept': 1, 'fact-without-visit': 1, 'resource-without-id': 1, 'unsupported-resource': 1, 'unsupported-bundle-type': 1,
      'fact-of-unknown-visit': 1, 'unparseable-value': 1,
    });
    assert.ok(s.factsSkipped!.examples.every((e) => !e.reason.includes('not json')), 'no input text in reasons');
    await assert.rejects(read(dir, true), SourceRowError);
  });

  it('parses fhir:DIR and refuses the tabular flags', () => {
    const spec = parseSourceSpec('fhir:datasets/fhir-synthetic/ndjson');
    assert.deepEqual(spec, { kind: 'fhir', dir: 'datasets/fhir-synthetic/ndjson' });
    assert.equal(describeSourceSpec(spec), 'fhir:datasets/fhir-synthetic/ndjson');
    assert.throws(() => parseSourceSpec('fhir:x', { queryFile: 'q.sql' }), /--query-file does not apply to a fhir source/);
    assert.throws(() => parseSourceSpec('fhir:'), /nothing after 'fhir:'/);
  });

  it('an empty or missing directory is a clear input error', async () => {
    await assert.rejects(read(dir), /has no \*\.json or \*\.ndjson files/);
    await assert.rejects(read(join(dir, 'nope')), /cannot read FHIR directory/);
  });

  it('reads HTML as its text: tags dropped, blocks on their own lines, entities decoded, scripts and styles gone', () => {
    assert.equal(
      htmlToText('<html><head><title>x</title><style>p{}</style></head><body><h2>History</h2><p>Cough &amp; fever&nbsp;for 3&#160;days.<br/>No chest pain.</p><!-- x --><ul><li>T 38.9 &deg;C</li></ul><script>alert(1)</script><table><tr><td>WBC</td><td>15.2</td></tr></table></body></html>'),
      'History\nCough & fever for 3 days.\nNo chest pain.\nT 38.9 °C\nWBC 15.2',
    );
  });

  it('DocumentReference and DiagnosticReport text go to the notes of their encounter; URL-only, PDF and unplaceable notes are counted', async () => {
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    const att = (contentType: string, text: string, title?: string) => ({ contentType, data: b64(text), ...(title ? { title } : {}) });
    const enc = (id: string, start: string, end?: string) => ({ resourceType: 'Encounter', id, status: 'finished', subject: { reference: 'Patient/a' }, period: { start, ...(end ? { end } : {}) } });
    const doc = (id: string, over: object) => ({ resourceType: 'DocumentReference', id, status: 'current', subject: { reference: 'Patient/a' }, content: [], ...over });
    const lines = (xs: object[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
    writeFileSync(join(dir, 'r.ndjson'), lines([
      { resourceType: 'Patient', id: 'a', gender: 'female', birthDate: '1970-01-01' },
      enc('e1', '2024-03-01T09:00:00Z', '2024-03-04T12:00:00Z'),
      enc('e2', '2024-03-03T09:00:00Z'),
      ...['e1', 'e2'].map((e) => ({ resourceType: 'Condition', id: `c-${e}`, subject: { reference: 'Patient/a' }, encounter: { reference: `Encounter/${e}` }, code: cc(SCT, '233604007', 'Pneumonia') })),
      // Alternatives of one document: the plain text is read, the HTML and the URL are the same document.
      doc('d2', { type: { coding: [{ system: LOINC, code: '34111-5', display: 'Emergency department note' }] }, context: { encounter: [{ reference: 'Encounter/e1' }] }, date: '2024-03-01T10:00:00Z',
        content: [{ attachment: att('text/html', '<p>other format</p>') }, { attachment: att('text/plain; charset=utf-8', 'Jane Doe, cough for 3 days.\nNo chest pain.') }, { attachment: { contentType: 'application/pdf', url: 'https://x/d2.pdf' } }] }),
      doc('d1', { description: 'Triage note', context: { encounter: [{ reference: 'Encounter/e1' }] }, date: '2024-03-01T08:00:00Z', content: [{ attachment: att('text/html', '<h3>Triage</h3><p>Febrile &amp; tachypnoeic.</p>') }] }),
      // No encounter: placed by date on the patient's encounter holding it (e2 starts later than e1 and holds it).
      doc('d3', { date: '2024-03-03T15:00:00Z', content: [{ attachment: att('text/markdown', '# Progress\n- improving', 'Progress note') }] }),
      doc('d4', { date: '2023-01-01', content: [{ attachment: att('text/plain', 'before any encounter') }] }),
      doc('d5', { context: { encounter: [{ reference: 'Encounter/e1' }] }, content: [{ attachment: { contentType: 'text/plain', url: 'https://ehr.example/notes/5' } }] }),
      doc('d6', { context: { encounter: [{ reference: 'Encounter/e1' }] }, content: [{ attachment: { contentType: 'application/pdf', data: b64('%PDF') } }] }),
      doc('d7', { context: { encounter: [{ reference: 'Encounter/e404' }] }, content: [{ attachment: att('text/plain', 'lost') }] }),
      { resourceType: 'DiagnosticReport', id: 'r1', status: 'final', code: { text: 'Chest X-ray' }, subject: { reference: 'Patient/a' }, encounter: { reference: 'Encounter/e2' }, effectiveDateTime: '2024-03-03T11:00:00Z',
        presentedForm: [att('text/plain', 'Right lower lobe opacity.')], conclusion: 'Consistent with pneumonia.' },
      { resourceType: 'DiagnosticReport', id: 'r2', status: 'final', code: cc(LOINC, '58410-2', 'CBC panel'), encounter: { reference: 'Encounter/e2' }, presentedForm: [{ contentType: 'application/pdf', url: 'https://x/r2.pdf' }], conclusion: 'Leukocytosis.' },
      { resourceType: 'DiagnosticReport', id: 'r3', status: 'final', code: cc(LOINC, '24357-6', 'Urinalysis'), encounter: { reference: 'Encounter/e2' }, result: [{ reference: 'Observation/o1' }] },
    ]));
    const { records, src } = await read(dir);
    const byId = new Map(records.map((r) => [r.id.split(':').pop(), r]));
    assert.deepEqual(byId.get('e1')?.notes, [
      { origin: 'DocumentReference/d1', title: 'Triage note', text: 'Triage\nFebrile & tachypnoeic.' },
      { origin: 'DocumentReference/d2', title: 'Emergency department note', text: 'Jane Doe, cough for 3 days.\nNo chest pain.' },
    ]);
    assert.deepEqual(byId.get('e2')?.notes, [
      { origin: 'DocumentReference/d3', title: 'Progress note', text: '# Progress\n- improving' },
      { origin: 'DiagnosticReport/r1', title: 'Chest X-ray', text: 'Right lower lobe opacity.' },
      { origin: 'DiagnosticReport/r1 conclusion', title: 'Chest X-ray: conclusion', text: 'Consistent with pneumonia.' },
      { origin: 'DiagnosticReport/r2 conclusion', title: 'CBC panel: conclusion', text: 'Leukocytosis.' },
    ]);
    assert.ok(records.every((r) => !r.text.includes('Jane') && !r.text.includes('opacity')), 'notes never go into the record text');
    const s = src.summary();
    assert.deepEqual(s.factsSkipped?.byReason, { 'note-not-inline': 2, 'unsupported-note-format': 1, 'empty-note': 1, 'note-without-visit': 1, 'fact-of-unknown-visit': 1 });
    assert.ok(s.factsSkipped!.examples.every((e) => !/before any encounter|lost|%PDF/.test(e.reason)), 'no note text in reasons');
    assert.ok(s.factsSkipped!.examples.some((e) => /DocumentReference\/d5: the attachment is given by URL only \(never fetched\)/.test(e.reason)));
  });
});

describe('FHIR source: its own concepts for the note reader (issue 24)', () => {
  it('names the concepts of its Observations and Conditions, coded as its findings are, and counts no problem twice', async () => {
    const src = new FhirSource('datasets/fhir-synthetic/bundles', { strict: false });
    const concepts = await src.codedConcepts();
    const wheezing = concepts.find((c) => c.code === 'SNOMED:56018004');
    assert.ok(wheezing, 'the Wheezing observation');
    assert.deepEqual(wheezing.forms, [wheezing.label]);
    const records: NormalizedRecord[] = [];
    for await (const r of src.records()) records.push(r);
    const codes = new Set(records.flatMap((r) => r.findings.map((f) => f.code)));
    assert.ok(codes.has('SNOMED:56018004'), 'the findings carry the same code');
    const before = src.summary();
    await src.codedConcepts();
    assert.deepEqual(src.summary(), before, 'a second index pass adds nothing to the source summary');
  });
});

describe('FHIR code systems and OMOP vocabulary ids', () => {
  it('systemOf is the inverse of vocabularyOf for the known systems; an unknown vocabulary becomes a URN', () => {
    for (const system of ['http://snomed.info/sct', 'http://loinc.org', 'http://hl7.org/fhir/sid/icd-10-cm']) assert.equal(systemOf(vocabularyOf(system)), system);
    assert.equal(systemOf('CPT4'), 'urn:omop:vocabulary:CPT4');
  });
});
