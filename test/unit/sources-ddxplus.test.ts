import { strict as assert } from 'node:assert';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import yazl from 'yazl';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { InputError, SourceRowError } from '../../src/errors.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';
import { parseEvidenceList } from '../../src/sources/ddxplus/evidence-token.js';

const SAMPLE = 'datasets/ddxplus';

async function collect(dir: string, strict = false): Promise<{ records: NormalizedRecord[]; src: DdxplusSource }> {
  const src = new DdxplusSource(dir, { strict });
  const records: NormalizedRecord[] = [];
  for await (const r of src.records()) records.push(r);
  return { records, src };
}

async function tempDdxplusDir(csv: string | null): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-ddx-'));
  for (const f of ['release_evidences.json', 'release_conditions.json']) await copyFile(join(SAMPLE, f), join(dir, f));
  if (csv !== null) await writeFile(join(dir, 'patients.csv'), csv);
  return dir;
}

const HEADER = 'AGE,DIFFERENTIAL_DIAGNOSIS,SEX,PATHOLOGY,EVIDENCES,INITIAL_EVIDENCE\n';

describe('DDXPlus source', function () {
  // Reads the 1,567-row sample several times; generous for loaded CI machines.
  this.timeout(60_000);
  let sample: NormalizedRecord[];
  let sampleSrc: DdxplusSource;
  before(async () => {
    ({ records: sample, src: sampleSrc } = await collect(SAMPLE));
  });

  it("declares each condition's evidence codes from release_conditions.json, by any spelling the records use", async () => {
    const conditions = JSON.parse(await readFile(join(SAMPLE, 'release_conditions.json'), 'utf8')) as Record<string, { symptoms: object; antecedents: object }>;
    const declared = await new DdxplusSource(SAMPLE, { strict: false }).declaredEvidence();
    const bronchiolitis = conditions['Bronchiolitis']!;
    assert.deepEqual(declared('Bronchiolitis'), [...Object.keys(bronchiolitis.symptoms), ...Object.keys(bronchiolitis.antecedents)]);
    assert.deepEqual(declared('bronchiolite'), declared('Bronchiolitis'), 'the French name resolves to the same condition');
    assert.equal(declared('Not a DDXPlus condition'), null);
    // Every diagnosis of the sample is declared, with the evidences its patients show among them (initial evidence included).
    for (const r of sample.slice(0, 200)) {
      const codes = new Set(declared(r.diagnosis));
      assert.ok(codes.size > 0, r.diagnosis);
      if (r.initialFindingCode) assert.ok(codes.has(r.initialFindingCode), `${r.diagnosis}: ${r.initialFindingCode}`);
    }
  });

  it('names the parent question of a follow-on answer (code_question), and none for a top-level one', () => {
    const withSite = sample.find((r) => r.findings.some((f) => f.code === 'E_55'))!;
    assert.ok(withSite.findings.filter((f) => f.code === 'E_55').every((f) => f.parentCode === 'E_53'));
    assert.ok(withSite.findings.filter((f) => f.code === 'E_53').every((f) => f.parentCode === null));
  });

  it('imports every row of the shipped sample, with no drop', async () => {
    const lines = (await readFile(join(SAMPLE, 'patients-dev.csv'), 'utf8')).trim().split('\n').length - 1;
    assert.equal(lines, 1567);
    assert.equal(sample.length, lines);
    assert.deepEqual(sampleSrc.summary(), { rowsRead: lines, recordsEmitted: lines, skipped: 0, skippedByReason: {}, examples: [] });
    assert.equal(new Set(sample.map((r) => r.id)).size, lines);
  });

  it('renders one finding per evidence token', async () => {
    const csv = (await readFile(join(SAMPLE, 'patients-dev.csv'), 'utf8')).trim().split('\n');
    for (const i of [1, 500, 1567]) {
      const evidences = /"(\[[^\]]*'E_[^\]]*\])"/.exec(csv[i] as string)?.[1] as string;
      const tokens = parseEvidenceList(evidences);
      assert.ok(tokens.ok);
      assert.equal(sample[i - 1]?.findings.length, tokens.value.length);
    }
  });

  it('renders row 3 (SLE) as hand-checked against the dictionaries', () => {
    const r = sample[2] as NormalizedRecord;
    assert.equal(r.id, 'ddxplus:patients-dev.csv:3');
    assert.equal(r.location, 'patients-dev.csv:4');
    assert.equal(r.diagnosis, 'SLE');
    assert.equal(r.icd10, 'M34');
    assert.equal(r.age, 7);
    assert.equal(r.sex, 'F');
    assert.equal(r.initialFindingCode, 'E_206');
    assert.equal(
      r.text,
      [
        'age: 7',
        'sex: female',
        'Do you have pain somewhere, related to your reason for consulting? yes',
        'pain character: sensitive, sharp',
        'pain location: back of the neck, ankle(R), dorsal aspect of the wrist(R), shoulder(R), shoulder(L)',
        'pain intensity (0-10): 7',
        'pain radiates to: nowhere',
        'pain location precision (0-10): 9',
        'pain onset speed (0-10): 6',
        'Are you experiencing shortness of breath or difficulty breathing in a significant way? yes',
        'Do you smoke cigarettes? yes',
        'Do you constantly feel fatigued or do you have non-restful sleep? yes',
        'Are you consulting because you have high blood pressure? yes',
        'Do you have any lesions, redness or problems on your skin that you believe are related to the condition you are consulting for? yes',
        'rash color: red',
        'lesions peel off: no',
        'rash swelling (0-10): 4',
        'rash location: cheek(R), nose',
        'lesions larger than 1cm: yes',
        'itching severity (0-10): 3',
        'Did you have your first menstrual period before the age of 12? yes',
        'travel out of the country in the last 4 weeks: no',
        'Do you have painful mouth ulcers or sores? yes',
      ].join('\n'),
    );
    assert.equal(r.findings.length, 27);
  });

  it('keeps codes, values, questions and antecedent flags on each finding (row 2, Anaphylaxis)', () => {
    const r = sample[1] as NormalizedRecord;
    assert.equal(r.diagnosis, 'Anaphylaxis');
    assert.equal(r.icd10, 'T78.0');
    assert.equal(r.initialFindingCode, 'E_66');
    const byText = new Map(r.findings.map((f) => [f.text, f]));
    assert.deepEqual(byText.get('pain location: flank(R)'), {
      text: 'pain location: flank(R)', polarity: 'present', code: 'E_55', valueCode: 'V_84',
      question: 'Do you feel pain somewhere?', valueText: 'flank(R)', antecedent: false, answerType: 'several-of', parentCode: 'E_53',
    });
    assert.deepEqual(byText.get('rash pain intensity (0-10): 0'), {
      text: 'rash pain intensity (0-10): 0', polarity: 'present', code: 'E_134', valueCode: '0',
      question: 'How intense is the pain caused by the rash?', valueText: '0', antecedent: false, answerType: 'number', parentCode: 'E_129',
    });
    const food = byText.get('Do you have a known severe food allergy? yes');
    assert.equal(food?.code, 'E_12');
    assert.equal(food?.antecedent, true);
    assert.equal(byText.get('travel out of the country in the last 4 weeks: no')?.polarity, 'absent');
    assert.equal(byText.get('pain radiates to: nowhere')?.polarity, 'absent');
    assert.match(r.text, /^swelling location: forehead, nose$/m);
    assert.equal(r.differential?.[0]?.diagnosis, 'Anaphylaxis');
  });

  it('counts malformed rows with location and reason, and the counts add up', async () => {
    const csv =
      HEADER +
      `30,,M,Pneumonia,"['E_91', 'E_53']",E_91\n` + // ok (empty differential is allowed)
      `30,,M,Pneumonia,"['E_91', 'E_53'",E_91\n` + // unterminated list
      `30,,M,Pneumonia,"['E_91', 'E_9999']",E_91\n` + // unknown code
      `30,,M,,"['E_91']",E_91\n` + // no diagnosis
      `30,,M,Pneumonia,"['E_55_@_V_9999']",E_55\n` + // unknown value
      `30,,M,Pneumonia\n` + // wrong column count
      `41,,F,Pneumonie,"['E_91']",E_91\n`; // French spelling resolves
    const dir = await tempDdxplusDir(csv);
    try {
      const { records, src } = await collect(dir);
      const s = src.summary();
      assert.deepEqual(records.map((r) => r.id), ['ddxplus:patients.csv:1', 'ddxplus:patients.csv:7']);
      assert.equal(records[1]?.icd10, 'J17, J18');
      assert.equal(s.rowsRead, 7);
      assert.equal(s.recordsEmitted + s.skipped, s.rowsRead);
      assert.deepEqual(s.skippedByReason, {
        'unparseable-evidences': 1, 'unknown-evidence-code': 1, 'missing-diagnosis': 1, 'unknown-value-code': 1, 'malformed-csv': 1,
      });
      assert.deepEqual(s.examples.map((e) => e.location), ['patients.csv:3', 'patients.csv:4', 'patients.csv:5', 'patients.csv:6', 'patients.csv:7']);
      assert.match(s.examples[1]?.reason ?? '', /unknown evidence code E_9999/);
      await assert.rejects(collect(dir, true), (e: unknown) => e instanceof SourceRowError && e.location === 'patients.csv:3');
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('rejects a CSV that is not a DDXPlus patients file, naming it', async () => {
    const dir = await tempDdxplusDir('id,diagnosis\n1,Pneumonia\n');
    try {
      await assert.rejects(collect(dir), (e: unknown) => e instanceof InputError && /patients\.csv is not a DDXPlus patients file: missing column\(s\) AGE, SEX, PATHOLOGY, EVIDENCES, INITIAL_EVIDENCE/.test(e.message));
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('streams official extension-less and zipped release files, with distinct ids', async () => {
    const dir = await tempDdxplusDir(null);
    try {
      const rows = HEADER + `30,,M,Pneumonia,"['E_91']",E_91\n`;
      await writeFile(join(dir, 'release_validate_patients'), rows);
      const zip = new yazl.ZipFile();
      zip.addBuffer(Buffer.from(rows + `52,,F,Pneumonia,"['E_53']",E_53\n`), 'release_test_patients');
      zip.end();
      const out = createWriteStream(join(dir, 'release_test_patients.zip'));
      zip.outputStream.pipe(out);
      await once(out, 'close');
      const { records, src } = await collect(dir);
      assert.deepEqual(records.map((r) => r.id), ['ddxplus:release_test_patients:1', 'ddxplus:release_test_patients:2', 'ddxplus:release_validate_patients:1']);
      assert.equal(records[1]?.age, 52);
      assert.equal(src.summary().rowsRead, 3);
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
