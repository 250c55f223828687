import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { InputError, SourceRowError } from '../../src/errors.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import type { RecordSource } from '../../src/sources/types.js';

const MAPPING = {
  id: 'visit_id',
  diagnosis: 'dx',
  icd10: 'icd',
  age: 'age',
  sex: 'sex',
  manifestations: ['complaints', { column: 'history', antecedent: true }],
  coded: [
    { column: 'fever', code: 'FEV', question: 'Fever?', label: 'fever', values: { '1': 'yes', '0': 'no' } },
    { column: 'sites', label: 'pain location', separator: '|' },
  ],
};

async function collect(src: RecordSource): Promise<NormalizedRecord[]> {
  const out: NormalizedRecord[] = [];
  for await (const r of src.records()) out.push(r);
  return out;
}

describe('CSV / JSONL sources with a mapping', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-tab-'));
    await writeFile(join(dir, 'm.json'), JSON.stringify(MAPPING));
    await writeFile(
      join(dir, 'visits.csv'),
      'visit_id,dx,icd,age,sex,complaints,history,fever,sites\n' +
        'v1,Pneumonia,j18,64,female,"productive cough; no chest pain\ndenies nausea.",smoker,1,left chest|back\n' +
        'v2,,,30,M,cough,,0,\n' + // missing diagnosis
        'v3,Influenza,,abc,M,cough,,0,\n' + // bad age
        'v4,Influenza,,40,M,cough,,7,\n' + // value not in dictionary
        'v5,Influenza,,,,,,,\n',
    );
  });
  after(() => rm(dir, { recursive: true }));

  it('maps columns into a record with findings, polarity and codes', async () => {
    const src = await openSource(parseSourceSpec(`csv:${join(dir, 'visits.csv')}`, { mapping: join(dir, 'm.json') }), { strict: false });
    const recs = await collect(src);
    const v1 = recs[0] as NormalizedRecord;
    assert.equal(v1.id, 'csv:visits.csv:v1');
    assert.equal(v1.location, 'visits.csv:3'); // the record spans lines 2-3 (quoted newline)
    assert.equal(v1.icd10, 'J18');
    assert.equal(v1.sex, 'F');
    assert.deepEqual(v1.findings.map((f) => [f.text, f.polarity, f.antecedent]), [
      ['productive cough', 'present', null],
      ['no chest pain', 'absent', null],
      ['denies nausea', 'absent', null],
      ['smoker', 'present', true],
      ['fever: yes', 'present', null],
      ['pain location: left chest', 'present', null],
      ['pain location: back', 'present', null],
    ]);
    assert.deepEqual(v1.findings[4], { text: 'fever: yes', polarity: 'present', code: 'FEV', valueCode: '1', question: 'Fever?', valueText: 'yes', antecedent: null });
    assert.equal(v1.text, 'age: 64\nsex: female\nproductive cough\nno chest pain\ndenies nausea\nsmoker\nfever: yes\npain location: left chest, back');
    const v5 = recs[1] as NormalizedRecord;
    assert.deepEqual([v5.id, v5.age, v5.sex, v5.icd10, v5.findings.length], ['csv:visits.csv:v5', null, null, null, 0]);
    const s = src.summary();
    assert.deepEqual([s.rowsRead, s.recordsEmitted, s.skipped], [5, 2, 3]);
    assert.deepEqual(s.skippedByReason, { 'missing-diagnosis': 1, 'bad-age': 1, 'unknown-value-code': 1 });
    assert.deepEqual(s.examples.map((e) => e.location), ['visits.csv:4', 'visits.csv:5', 'visits.csv:6']);
  });

  it('stops at the first bad row in strict mode', async () => {
    const src = await openSource(parseSourceSpec(`csv:${join(dir, 'visits.csv')}`, { mapping: join(dir, 'm.json') }), { strict: true });
    await assert.rejects(collect(src), (e: unknown) => e instanceof SourceRowError && e.location === 'visits.csv:4' && /dx is empty/.test(e.message));
  });

  it('reads JSONL, with lists of manifestations and typed values; bad lines are counted', async () => {
    const path = join(dir, 'visits.jsonl');
    await writeFile(
      path,
      [
        JSON.stringify({ visit_id: 7, dx: 'Asthma', age: 12, sex: 'M', complaints: ['wheezing', 'no fever'], fever: 0 }),
        '{"visit_id": 8, "dx": "Asthma"',
        '',
        JSON.stringify({ visit_id: 9, dx: 42 }),
        '[1,2]',
      ].join('\n') + '\n',
    );
    const src = await openSource(parseSourceSpec(`jsonl:${path}`, { mapping: join(dir, 'm.json') }), { strict: false });
    const recs = await collect(src);
    assert.equal(recs.length, 1);
    assert.equal(recs[0]?.id, 'jsonl:visits.jsonl:7');
    assert.deepEqual(recs[0]?.findings.map((f) => `${f.text}/${f.polarity}`), ['wheezing/present', 'no fever/absent', 'fever: no/absent']);
    const s = src.summary();
    assert.deepEqual([s.rowsRead, s.recordsEmitted, s.skipped], [4, 1, 3]);
    assert.deepEqual(s.skippedByReason, { 'bad-json': 2, 'wrong-type': 1 });
    assert.deepEqual(s.examples.map((e) => e.location), ['visits.jsonl:2', 'visits.jsonl:4', 'visits.jsonl:5']);
    assert.match(s.examples[1]?.reason ?? '', /column dx: expected string, got number/);
  });

  it('rejects an invalid mapping file with the field named', async () => {
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ diagnosis: 'dx', coded: [{ code: 'X' }] }));
    const src = await openSource(parseSourceSpec(`csv:${join(dir, 'visits.csv')}`, { mapping: join(dir, 'bad.json') }), { strict: false });
    await assert.rejects(collect(src), (e: unknown) => e instanceof InputError && /coded\.0\.column/.test(e.message));
  });
});

describe('CSV / JSONL sources: note columns and repeated ids', () => {
  let dir: string;
  const NOTE_MAPPING = {
    id: 'visit_id', diagnosis: 'dx', age: 'age', sex: 'sex', manifestations: ['complaints'],
    notes: ['hpi', { column: 'discharge', title: 'Discharge summary' }],
  };
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-notes-'));
    await writeFile(join(dir, 'm.json'), JSON.stringify(NOTE_MAPPING));
  });
  after(() => rm(dir, { recursive: true }));

  it('reads note columns whole into record.notes, never into findings or the record text', async () => {
    const hpi = 'Mr. Smith (MRN 123456) has had a cough for 3 days; no fever.\nDenies chest pain.';
    await writeFile(join(dir, 'n.csv'), `visit_id,dx,age,sex,complaints,hpi,discharge\nv1,Pneumonia,64,F,productive cough,"${hpi}",Discharged home.\nv2,Influenza,30,M,myalgia,, \n`);
    const recs = await collect(await openSource(parseSourceSpec(`csv:${join(dir, 'n.csv')}`, { mapping: join(dir, 'm.json') }), { strict: true }));
    assert.deepEqual(recs[0]?.notes, [
      { origin: 'column hpi', title: null, text: hpi },
      { origin: 'column discharge', title: 'Discharge summary', text: 'Discharged home.' },
    ]);
    assert.deepEqual(recs[0]?.findings.map((f) => f.text), ['productive cough'], 'notes are not split into phrase findings');
    assert.equal(recs[0]?.text, 'age: 64\nsex: female\nproductive cough');
    assert.ok(!recs[0]!.text.includes('MRN') && !recs[0]!.text.includes('Discharged'));
    assert.equal(recs[1]?.notes, undefined, 'blank note cells are no note');
  });

  it('a JSONL list is several notes; a note of the wrong type is a wrong-type row', async () => {
    const path = join(dir, 'n.jsonl');
    await writeFile(path, [
      JSON.stringify({ visit_id: 1, dx: 'Asthma', hpi: ['Wheezing since last night.', 'Nebulised twice at home.', ''], complaints: 'wheeze' }),
      JSON.stringify({ visit_id: 2, dx: 'Asthma', hpi: { text: 'x' } }),
      JSON.stringify({ visit_id: 3, dx: 'Asthma', discharge: ['ok', 7] }),
    ].join('\n') + '\n');
    const src = await openSource(parseSourceSpec(`jsonl:${path}`, { mapping: join(dir, 'm.json') }), { strict: false });
    const recs = await collect(src);
    assert.deepEqual(recs.map((r) => r.notes?.map((n) => n.text)), [['Wheezing since last night.', 'Nebulised twice at home.']]);
    assert.deepEqual(src.summary().skippedByReason, { 'wrong-type': 2 });
    assert.match(src.summary().examples[0]?.reason ?? '', /column hpi: expected text or list of text, got object/);
  });

  it('a mapping may not read one column both as a note and as manifestations', async () => {
    await writeFile(join(dir, 'both.json'), JSON.stringify({ diagnosis: 'dx', manifestations: ['hpi'], notes: [{ column: 'hpi' }] }));
    const src = await openSource(parseSourceSpec(`csv:${join(dir, 'n.csv')}`, { mapping: join(dir, 'both.json') }), { strict: false });
    await assert.rejects(collect(src), (e: unknown) => e instanceof InputError && /notes\.0: column hpi is also in manifestations/.test(e.message));
  });

  it('a repeated id is a duplicate-id bad row (first kept, the rest reported by location); strict stops on it', async () => {
    const path = join(dir, 'train.csv');
    await writeFile(path, 'visit_id,dx,age,sex,complaints,hpi,discharge\n15,Pneumonia,60,F,cough,,\n16,,60,F,cough,,\n16,Influenza,30,M,myalgia,,\n15,Influenza,30,M,myalgia,,\n17,Asthma,9,M,wheeze,,\n15,Asthma,9,M,wheeze,,\n');
    const src = await openSource(parseSourceSpec(`csv:${path}`, { mapping: join(dir, 'm.json') }), { strict: false });
    const recs = await collect(src);
    assert.deepEqual(recs.map((r) => [r.id, r.diagnosis]), [['csv:train.csv:15', 'Pneumonia'], ['csv:train.csv:16', 'Influenza'], ['csv:train.csv:17', 'Asthma']],
      'a row skipped for another reason does not claim its id');
    const s = src.summary();
    assert.deepEqual([s.rowsRead, s.recordsEmitted, s.skipped], [6, 3, 3]);
    assert.deepEqual(s.skippedByReason, { 'missing-diagnosis': 1, 'duplicate-id': 2 });
    assert.deepEqual(s.examples.slice(1).map((e) => e.location), ['train.csv:5', 'train.csv:7']);
    assert.match(s.examples[1]?.reason ?? '', /duplicate id csv:train\.csv:15: column visit_id repeats the id of an earlier row/);
    await writeFile(join(dir, 'dup.csv'), 'visit_id,dx\n15,Pneumonia\n15,Influenza\n');
    const strict = await openSource(parseSourceSpec(`csv:${join(dir, 'dup.csv')}`, { mapping: join(dir, 'm.json') }), { strict: true });
    await assert.rejects(collect(strict), (e: unknown) => e instanceof SourceRowError && e.location === 'dup.csv:3' && /duplicate id csv:dup\.csv:15/.test(e.message));
    const noId = { ...NOTE_MAPPING, id: undefined };
    await writeFile(join(dir, 'noid.json'), JSON.stringify(noId));
    const byRow = await collect(await openSource(parseSourceSpec(`csv:${path}`, { mapping: join(dir, 'noid.json') }), { strict: false }));
    assert.equal(byRow.length, 5, 'without an id column, row numbers never repeat');
  });
});

describe('CSV sources: a mapped patient column (issue 25)', () => {
  it('names the patient of each row, so a split keeps a patient on one side; an empty one is a missing-patient row', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dxgraph-tab-patient-'));
    try {
      await writeFile(join(dir, 'm.json'), JSON.stringify({ id: 'visit', patient: 'mrn', diagnosis: 'dx', manifestations: ['complaints'] }));
      await writeFile(join(dir, 'v.csv'), 'visit,mrn,dx,complaints\nv1,p7,Flu,cough\nv2,p7,Cold,sneeze\nv3,,Flu,cough\nv4,p8,Flu,fever\n');
      const src = await openSource(parseSourceSpec(`csv:${join(dir, 'v.csv')}`, { mapping: join(dir, 'm.json') }), { strict: false });
      const records = await collect(src);
      assert.deepEqual(records.map((r) => [r.id, r.patient]), [['csv:v.csv:v1', 'csv:v.csv:patient:p7'], ['csv:v.csv:v2', 'csv:v.csv:patient:p7'], ['csv:v.csv:v4', 'csv:v.csv:patient:p8']]);
      assert.deepEqual(src.summary().skippedByReason, { 'missing-patient': 1 });
      assert.ok(records.every((r) => !r.text.includes('p7') && !r.text.includes('p8')), 'the key stays out of the record text');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
