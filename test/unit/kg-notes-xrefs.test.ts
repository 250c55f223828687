import assert from 'node:assert/strict';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { HashedEmbedder } from '../../src/adapters/embeddings/index.js';
import { noteVocabularies } from '../../kg-build/note-vocabularies.js';
import { buildMemoryKg } from '../../bench/lib/notes-kg-memory.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * Issue 24: the same concept from two sources is one feature. A hospital codes fever as SNOMED
 * 386661006 (OMOP, FHIR); its notes say "pyrexia", which HPO reads as HP:0001945, whose
 * cross-reference is that SNOMED code: the KG keeps the coded feature, with both sources' counts.
 */
const vocab = noteVocabularies({
  ddxplus: null, lexicon: null,
  phenotypes: [{ name: 'HPO', attribution: 'test', concepts: [{ vocabulary: 'HPO', code: 'HP:0001945', label: 'Fever', forms: ['Fever', 'Pyrexia'], xrefs: ['UMLS:C0015967', 'SNOMEDCT_US:386661006'], parents: [] }] }],
});
const base = { icd10: null, age: null, sex: null, initialFindingCode: null, text: '', location: 'test' };
const coded = (id: string, diagnosis: string): NormalizedRecord => ({
  ...base, id, diagnosis,
  findings: [{ text: 'Fever', polarity: 'present', code: 'SNOMED:386661006', valueCode: null, question: null, valueText: null, antecedent: false, provenance: { vocabulary: 'SNOMED', conceptCode: '386661006', conceptId: 1, sourceValue: null, origin: 'observation 1' } }],
});
const noted = (id: string, diagnosis: string, text: string): NormalizedRecord => ({ ...base, id, diagnosis, findings: [], notes: [{ origin: 'note 1', title: null, text }] });

describe('one concept from coded facts and notes (issue 24)', () => {
  it('a note read as an HPO phenotype joins the coded feature its SNOMED cross-reference names', async () => {
    const records = [coded('omop:a:1', 'Influenza'), coded('omop:a:2', 'Influenza'), noted('notes:n:1', 'Pneumonia', 'Pyrexia and cough.'), noted('notes:n:2', 'Pneumonia', 'pyrexia since yesterday')];
    const kg = await buildMemoryKg(records, { reader: { vocabulary: vocab.snapshot, lexicon: null, prepare: (text) => ({ text, leftOut: {}, scrubbed: {} }) }, embeddings: new HashedEmbedder() });
    const fevers = kg.snapshot.features.filter((f) => f.code === 'SNOMED:386661006' || f.code === 'HP:0001945');
    assert.deepEqual(fevers.map((f) => f.code), ['SNOMED:386661006']);
    const f = kg.snapshot.featureIndex.get(fevers[0]!.id)!;
    assert.deepEqual([...kg.snapshot.featureDiseases[f]!].map((d) => kg.snapshot.diseases[d]!.name).sort(), ['Influenza', 'Pneumonia']);
    assert.notEqual(fevers[0]!.fromNotes, true, 'a coded feature is no notes-only feature');
  });
  it('without a coded feature to join, the phenotype stays an HPO feature with its cross-references', async () => {
    const records = [noted('notes:n:1', 'Pneumonia', 'Pyrexia and cough.'), noted('notes:n:2', 'Pneumonia', 'pyrexia since yesterday')];
    const kg = await buildMemoryKg(records, { reader: { vocabulary: vocab.snapshot, lexicon: null, prepare: (text) => ({ text, leftOut: {}, scrubbed: {} }) }, embeddings: new HashedEmbedder() });
    const hpo = kg.snapshot.features.find((f) => f.code === 'HP:0001945');
    assert.ok(hpo);
    assert.equal(hpo.vocabulary, 'HPO');
    assert.equal(hpo.fromNotes, true);
    assert.ok(hpo.xrefs?.includes('SNOMEDCT_US:386661006'));
  });
});

describe('a coded feature of a disease whose records are partly notes (issue 24)', () => {
  it('has its prevalence over its complete records when it has 5 or more; pooled, over every coded record and the notes that mention it', async () => {
    const fever = { id: 'feat:x1', text: 'fever', kind: 'ehr' as const, code: 'X1', valueCode: null, question: null, valueText: null, antecedent: null };
    const snapshot = buildSnapshot({ categories: [], subcategories: [], diseases: [], features: [fever], manifestations: [] });
    const codedFever = (id: string, present: boolean): NormalizedRecord => ({
      ...base, id, diagnosis: 'Influenza',
      findings: [{ text: 'fever', polarity: present ? 'present' : 'absent', code: 'X1', valueCode: null, question: null, valueText: null, antecedent: false }, { text: 'cough', polarity: 'present', code: 'X2', valueCode: null, question: null, valueText: null, antecedent: false }],
    });
    // 8 of 10 coded records have fever; of 5 notes, one says fever, one denies it, three never mention it.
    const records = [
      ...Array.from({ length: 10 }, (_, i) => codedFever(`c:${i}`, i < 8)),
      noted('n:1', 'Influenza', 'fever and aches'), noted('n:2', 'Influenza', 'no fever, aches'), noted('n:3', 'Influenza', 'aches'), noted('n:4', 'Influenza', 'aches'), noted('n:5', 'Influenza', 'aches'),
    ];
    const reader = { vocabulary: snapshot, lexicon: null, prepare: (text: string) => ({ text, leftOut: {}, scrubbed: {} }) };
    const edge = async (decompose: { completeRecordsFirst?: number }) => {
      const kg = await buildMemoryKg(records, { reader, embeddings: new HashedEmbedder(), decompose });
      const d = kg.snapshot.diseaseIndex.get(kg.snapshot.diseases.find((x) => x.name === 'Influenza')!.id)!;
      return { kg, m: kg.snapshot.manifestations[d]!, f: kg.snapshot.features.findIndex((x) => x.code === 'X1') };
    };
    // By default the 10 complete records decide: a note mentions what struck its writer.
    const first = await edge({});
    assert.equal(first.m.counts[first.m.position.get(first.f)!], 8);
    assert.ok(Math.abs(first.m.prevalence[first.m.position.get(first.f)!]! - 8 / 10) < 1e-6);
    // Pooled (a disease with fewer complete records than completeRecordsFirst): the notes that mention it count.
    const { kg, m, f } = await edge({ completeRecordsFirst: Infinity });
    const at = m.position.get(f)!;
    assert.equal(m.counts[at], 9);
    assert.ok(Math.abs(m.prevalence[at]! - 9 / 12) < 1e-6, `prevalence ${m.prevalence[at]} (9 of 10 coded + 2 mentioning notes), not 9/15`);
    // Cough, coded in every complete record and never mentioned by a note, is 10 of the 10 records that could show it.
    const cough = kg.snapshot.features.findIndex((x) => x.code === 'X2');
    assert.ok(Math.abs(m.prevalence[m.position.get(cough)!]! - 10 / 10) < 1e-6);
  });
});

describe("a note read against the source's own concepts (issue 24)", () => {
  it('a note\'s "wheeze" is the OMOP Wheezing observation the coded records carry: one feature', async () => {
    const own = noteVocabularies({ ddxplus: null, lexicon: null, phenotypes: [], sourceConcepts: [{ vocabulary: 'SNOMED', code: 'SNOMED:56018004', label: 'Wheezing', forms: ['Wheezing', 'Wheeze'], xrefs: [], parents: [] }] });
    const omop = (id: string): NormalizedRecord => ({
      ...base, id, diagnosis: 'Asthma',
      findings: [{ text: 'Wheezing', polarity: 'present', code: 'SNOMED:56018004', valueCode: null, question: null, valueText: null, antecedent: false }],
    });
    const records = [omop('omop:a:1'), omop('omop:a:2'), noted('notes:n:1', 'Bronchiolitis', 'Wheeze and poor feeding.'), noted('notes:n:2', 'Bronchiolitis', 'audible wheeze')];
    const kg = await buildMemoryKg(records, { reader: { vocabulary: own.snapshot, lexicon: null, prepare: (text) => ({ text, leftOut: {}, scrubbed: {} }) }, embeddings: new HashedEmbedder() });
    const wheeze = kg.snapshot.features.filter((f) => f.code === 'SNOMED:56018004');
    assert.equal(wheeze.length, 1);
    const f = kg.snapshot.featureIndex.get(wheeze[0]!.id)!;
    assert.deepEqual([...kg.snapshot.featureDiseases[f]!].map((d) => kg.snapshot.diseases[d]!.name).sort(), ['Asthma', 'Bronchiolitis']);
    assert.deepEqual(wheeze[0]!.forms, ['Wheezing', 'Wheeze'], 'the query reads the feature by the synonyms the notes were read by');
  });
});
