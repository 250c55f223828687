import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import type { Finding, NormalizedRecord } from '../../src/domain/record.js';
import { clusterDiseases } from '../../kg-build/cluster-diseases.js';
import { decomposeFeatures } from '../../kg-build/decompose-features.js';
import { featureIdOf, featureKey } from '../../kg-build/feature-key.js';
import { scanRecords } from '../../kg-build/scan-records.js';
import { MemorySource, syntheticRecords } from '../support/memory-source.js';

const embeddings = new HashedEmbedder();
const spool = () => join(mkdtempSync(join(tmpdir(), 'kg-dec-')), 'spool.jsonl');

function record(id: number, diagnosis: string, findings: Finding[]): NormalizedRecord {
  return { id: `m:${id}`, diagnosis, icd10: null, age: 40, sex: 'F', findings, initialFindingCode: null, text: findings.map((f) => f.text).join('\n'), location: `m:${id}` };
}
const free = (text: string, polarity: 'present' | 'absent' = 'present'): Finding => ({ text, polarity, code: null, valueCode: null, question: null, valueText: null, antecedent: null });
const coded = (code: string, valueCode: string | null, text: string): Finding => ({ text, polarity: 'present', code, valueCode, question: 'q', valueText: valueCode, antecedent: false });

async function build(records: NormalizedRecord[], include?: (r: NormalizedRecord) => boolean) {
  const scan = await scanRecords({ records: new MemorySource(records).records(), spoolPath: spool(), ...(include ? { include } : {}) });
  const clusters = await clusterDiseases({ diagnoses: scan.diagnoses, embeddings });
  return { scan, clusters, dec: await decomposeFeatures({ scan, clusters, embeddings }) };
}

describe('kg-build decompose-features (E_L4d)', () => {
  it('prevalence is count / records of the disease, checked against the synthetic data itself', async () => {
    const records = syntheticRecords(
      [
        { name: 'Alpha fever', findings: { E_1: 0.9, E_2: 0.3, E_3: 0.05 } },
        { name: 'Beta cough', findings: { E_1: 0.2, E_4: 0.8 } },
      ],
      { perDisease: 60, seed: 7 },
    );
    const { clusters, dec } = await build(records);
    for (const d of clusters.diseases) {
      const mine = records.filter((r) => r.diagnosis === d.name);
      assert.equal(d.recordCount, mine.length);
      for (const code of ['E_1', 'E_2', 'E_3', 'E_4']) {
        const expected = mine.filter((r) => r.findings.some((f) => f.code === code)).length;
        const edge = dec.manifestations.find((m) => m.diseaseId === d.id && m.featureId === featureIdOf(`c:${code}=`));
        if (expected === 0) assert.equal(edge, undefined);
        else {
          assert.equal(edge?.count, expected);
          assert.equal(edge?.prevalence, expected / mine.length);
        }
      }
    }
    const e1 = dec.features.find((f) => f.code === 'E_1');
    assert.equal(e1?.kind, 'ehr');
    assert.equal(e1?.valueText, 'yes');
  });

  it('a coded feature of a disease with enough complete records is estimated from those alone; with fewer, the notes that mention it count', async () => {
    const fever = coded('E_91', null, 'fever');
    const cough = coded('E_53', null, 'cough');
    const note = (id: number, diagnosis: string, findings: Finding[]): NormalizedRecord => ({ ...record(id, diagnosis, findings), incomplete: true });
    let id = 0;
    const records = [
      // Flu: 6 coded records (fever in 3) and 4 notes that all speak of fever.
      ...[1, 1, 1, 0, 0, 0].map((f) => record(++id, 'Flu', f ? [fever, cough] : [cough])),
      ...[0, 1, 2, 3].map(() => note(++id, 'Flu', [fever])),
      // Croup: 2 coded records (fever in 1) and 2 notes with fever; one note also says "no cough".
      record(++id, 'Croup', [fever, cough]), record(++id, 'Croup', [cough]),
      note(++id, 'Croup', [fever]), note(++id, 'Croup', [fever, { ...cough, polarity: 'absent' }]),
    ];
    const { clusters, dec } = await build(records);
    const edge = (name: string, code: string) => dec.manifestations.find((m) => m.diseaseId === clusters.diseaseOf.get(name) && m.featureId === featureIdOf(`c:${code}=`));
    assert.deepEqual([edge('Flu', 'E_91')?.count, edge('Flu', 'E_91')?.prevalence], [3, 0.5], 'Flu: 3 of its 6 coded records; the notes left out');
    assert.deepEqual([edge('Flu', 'E_53')?.count, edge('Flu', 'E_53')?.prevalence], [6, 1]);
    assert.deepEqual([edge('Croup', 'E_91')?.count, edge('Croup', 'E_91')?.prevalence], [3, 0.75], 'Croup: 2 coded records + 2 notes mentioning fever');
    assert.deepEqual([edge('Croup', 'E_53')?.count, edge('Croup', 'E_53')?.prevalence], [2, 2 / 3], 'the note that denies cough counts in the denominator');
  });

  it('a disease of coded records and notes keeps how its notes speak (NOTES_MENTION) beside its manifestation rates', async () => {
    const fever = coded('E_91', null, 'fever');
    const cough = coded('E_53', null, 'cough');
    const bugs = free('kissing bug bites');
    // A record with notes: what read-notes-stage makes of it (retrievalText set, incomplete when it has no codes).
    const note = (id: number, diagnosis: string, findings: Finding[]): NormalizedRecord => ({ ...record(id, diagnosis, findings), incomplete: true, retrievalText: 'note' });
    let id = 0;
    const records = [
      // Chagas: 8 coded records (fever in all) and 4 notes: fever in 1, kissing bugs in 3.
      ...Array.from({ length: 8 }, () => record(++id, 'Chagas', [fever, cough])),
      note(++id, 'Chagas', [fever, bugs]), note(++id, 'Chagas', [bugs]), note(++id, 'Chagas', [bugs]), note(++id, 'Chagas', [cough]),
      // Flu: coded records only; Croup: notes only. Neither has two kinds of records.
      ...Array.from({ length: 3 }, () => record(++id, 'Flu', [fever])),
      note(++id, 'Croup', [cough]), note(++id, 'Croup', [fever]),
    ];
    const scan = await scanRecords({ records: new MemorySource(records).records(), spoolPath: spool() });
    const clusters = await clusterDiseases({ diagnoses: scan.diagnoses, embeddings });
    const bugsKey = featureKey(bugs);
    const dec = await decomposeFeatures({ scan, clusters, embeddings, noteKeys: new Set([bugsKey, featureKey(fever), featureKey(cough)]), codedKeys: new Set([featureKey(fever), featureKey(cough)]) });
    const chagas = clusters.diseaseOf.get('Chagas')!;
    assert.deepEqual([...dec.notedRecords.entries()], [[chagas, 4]], 'only Chagas has both kinds of records');
    const said = new Map(dec.notesMentions.map((m) => [m.featureId, m]));
    assert.ok(dec.notesMentions.every((m) => m.diseaseId === chagas));
    assert.equal(said.get(featureIdOf('c:E_91='))?.count, 1, 'fever: written in 1 of its 4 notes, though every coded record answers yes');
    assert.equal(said.get(featureIdOf('c:E_53='))?.count, 1);
    assert.equal(said.get(featureIdOf(bugsKey))?.count, 3);
    const edge = dec.manifestations.find((m) => m.diseaseId === chagas && m.featureId === featureIdOf(bugsKey));
    assert.deepEqual([edge?.count, edge?.prevalence], [3, 3 / 12], 'kissing bugs: as a manifestation, 3 of all 12 records (the notes rate is the mention: 3 of 4)');
    const fev = dec.manifestations.find((m) => m.diseaseId === chagas && m.featureId === featureIdOf('c:E_91='));
    assert.deepEqual([fev?.count, fev?.prevalence], [8, 1], 'the coded rate from the 8 coded records alone');
  });

  it('keeps one feature per (code, value) for numeric answers, and provenance on the node', async () => {
    const { dec } = await build([
      record(1, 'Flu', [coded('E_56', '7', 'pain intensity: 7')]),
      record(2, 'Flu', [coded('E_56', '7', 'pain intensity: 7')]),
      record(3, 'Flu', [coded('E_56', '3', 'pain intensity: 3')]),
    ]);
    assert.equal(dec.features.length, 2);
    const seven = dec.features.find((f) => f.valueCode === '7');
    assert.equal(seven?.code, 'E_56');
    assert.equal(dec.manifestations.find((m) => m.featureId === seven?.id)?.count, 2);
  });

  it('merges near-duplicate free text, counts a record once, and leaves absent findings out', async () => {
    const { scan, dec } = await build([
      record(1, 'Migraine', [free('throbbing headache'), free('Throbbing headache!'), free('no fever', 'absent')]),
      record(2, 'Migraine', [free('throbbing headache.')]),
      record(3, 'Migraine', [free('nausea')]),
    ]);
    assert.equal(scan.absentFindings, 1);
    assert.equal(featureKey(free('Throbbing headache!')), featureKey(free('throbbing headache')), 'punctuation/case normalised in the key');
    const headache = dec.manifestations.find((m) => dec.features.find((f) => f.id === m.featureId)?.text.toLowerCase().includes('headache'));
    assert.equal(headache?.count, 2);
    assert.ok(Math.abs(headache!.prevalence - 2 / 3) < 1e-9);
    assert.equal(dec.features.length, 2);
  });

  it('merges free-text paraphrases above the similarity threshold into one node', async () => {
    const records = [record(1, 'Asthma', [free('wheezing when breathing out')]), record(2, 'Asthma', [free('wheezing when breathing out at night')])];
    const scan = await scanRecords({ records: new MemorySource(records).records(), spoolPath: spool() });
    const clusters = await clusterDiseases({ diagnoses: scan.diagnoses, embeddings });
    const strict = await decomposeFeatures({ scan, clusters, embeddings }, { mergeSimilarity: 0.999 });
    const loose = await decomposeFeatures({ scan, clusters, embeddings }, { mergeSimilarity: 0.6 });
    assert.equal(strict.features.length, 2);
    assert.equal(loose.features.length, 1);
    assert.equal(loose.merged, 1);
    assert.equal(loose.manifestations[0]?.count, 2);
  });

  it('records the include predicate drops are never seen by the build', async () => {
    const records = syntheticRecords([{ name: 'Gamma', findings: { E_9: 1 } }], { perDisease: 10, seed: 1 });
    const { scan, clusters } = await build(records, (r) => Number(r.id.split(':').at(-1)) % 2 === 0);
    assert.equal(scan.recordCount, 5);
    assert.equal(scan.excluded, 5);
    assert.equal(clusters.diseases[0]?.recordCount, 5);
  });
});
