import { strict as assert } from 'node:assert';
import type { ClusteredDisease, DiseaseClusters } from '../../kg-build/cluster-diseases.js';
import { attachKnownEvidence } from '../../kg-build/known-evidence.js';
import type { DiseaseKnowledge, KnownEvidence } from '../../src/sources/types.js';

/**
 * Issue 48, the build stage: the source's curated rates are stored on the clustered Disease nodes
 * (knownEvidence / knownRates / knowledgeSource), for the diseases the source knows.
 */
const disease = (id: string, name: string, aliases: string[]): ClusteredDisease => ({ id, name, icd10: null, recordCount: 10, aliases, ageBands: null, sexCounts: null });

// Chagas was recorded under two spellings merged into one disease; sarcoidosis under one; URTI under one.
function clusters(): DiseaseClusters {
  return {
    diseases: [disease('dis:chagas', 'Chagas', ['Chagas', 'Maladie de Chagas']), disease('dis:sarcoidosis', 'Sarcoidosis', ['Sarcoïdose']), disease('dis:urti', 'URTI', ['URTI'])],
    diseaseOf: new Map([
      ['Maladie de Chagas', 'dis:chagas'],
      ['Chagas', 'dis:chagas'],
      ['Sarcoïdose', 'dis:sarcoidosis'],
      ['URTI', 'dis:urti'],
    ]),
  };
}

const CHAGAS: KnownEvidence = { source: 'ORPHA:3386 American trypanosomiasis', rates: { E_201: 0.545, E_129: 0.17, E_51: 0.545, E_9: 0.025 } };
const SARCOID: KnownEvidence = { source: 'ORPHA:797 Sarcoidosis', rates: { E_201: 0.545 } };

/** A lookup that knows these raw strings, and records what it was asked. */
function lookup(known: Record<string, KnownEvidence>, asked: string[] = []): DiseaseKnowledge {
  return (raw) => {
    asked.push(raw);
    return known[raw] ?? null;
  };
}

describe('build: the source’s knowledge of each disease’s findings (issue 48)', () => {
  it('a source without knowledge leaves the clusters as they were', () => {
    const c = clusters();
    const out = attachKnownEvidence(c, null);
    assert.equal(out, c);
    assert.ok(out.diseases.every((d) => !('knownEvidence' in d)), 'no field added');
  });

  it('a disease whose raw name the source knows gets its codes sorted, the rates aligned, and where they come from', () => {
    const out = attachKnownEvidence(clusters(), lookup({ 'Maladie de Chagas': CHAGAS, 'Sarcoïdose': SARCOID }));
    const chagas = out.diseases.find((d) => d.id === 'dis:chagas')!;
    assert.deepEqual(chagas.knownEvidence, ['E_129', 'E_201', 'E_51', 'E_9'], 'sorted as strings');
    assert.deepEqual(chagas.knownRates, [0.17, 0.545, 0.545, 0.025]);
    chagas.knownEvidence!.forEach((code, i) => assert.equal(chagas.knownRates![i], CHAGAS.rates[code], code));
    assert.equal(chagas.knowledgeSource, CHAGAS.source);
    const sarcoid = out.diseases.find((d) => d.id === 'dis:sarcoidosis')!;
    assert.deepEqual([sarcoid.knownEvidence, sarcoid.knownRates, sarcoid.knowledgeSource], [['E_201'], [0.545], SARCOID.source]);
  });

  it('a disease the source does not know gets null knowledge, and the rest of every node is kept', () => {
    const before = clusters();
    const out = attachKnownEvidence(before, lookup({ Chagas: CHAGAS }));
    const urti = out.diseases.find((d) => d.id === 'dis:urti')!;
    assert.deepEqual([urti.knownEvidence, urti.knownRates, urti.knowledgeSource], [null, null, null]);
    const sarcoid = out.diseases.find((d) => d.id === 'dis:sarcoidosis')!;
    assert.equal(sarcoid.knownEvidence, null);
    out.diseases.forEach((d, i) => {
      const { knownEvidence: _e, knownRates: _r, knowledgeSource: _s, ...rest } = d;
      assert.deepEqual(rest, before.diseases[i]);
    });
    assert.equal(out.diseaseOf, before.diseaseOf);
    assert.ok(before.diseases.every((d) => !('knownEvidence' in d)), 'the input is not mutated');
  });

  it('of a disease’s raw names, the first the source knows answers, and the lookup is not asked again', () => {
    const asked: string[] = [];
    const other: KnownEvidence = { source: 'other', rates: { E_91: 0.9 } };
    const out = attachKnownEvidence(clusters(), lookup({ 'Maladie de Chagas': CHAGAS, Chagas: other }, asked));
    assert.equal(out.diseases[0]!.knowledgeSource, CHAGAS.source, 'Maladie de Chagas comes first in diseaseOf');
    assert.deepEqual(asked, ['Maladie de Chagas', 'Sarcoïdose', 'URTI']);
  });

  it('a raw name the source knows but without a rate does not stop a later spelling from answering', () => {
    const out = attachKnownEvidence(clusters(), lookup({ 'Maladie de Chagas': { source: 'empty', rates: {} }, Chagas: CHAGAS }));
    assert.equal(out.diseases[0]!.knowledgeSource, CHAGAS.source);
  });

  it('knowledge with no rates is no knowledge', () => {
    const out = attachKnownEvidence(clusters(), () => ({ source: 'ORPHA:0 nothing', rates: {} }));
    for (const d of out.diseases) assert.deepEqual([d.knownEvidence, d.knownRates, d.knowledgeSource], [null, null, null], d.id);
  });
});
