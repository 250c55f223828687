import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { SourceRowError } from '../../src/errors.js';
import { datePart, icd10Of, normalizeReference, preferredConcept } from '../../src/sources/fhir/fhir-codes.js';
import { FhirSource } from '../../src/sources/fhir/fhir-source.js';
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
});
