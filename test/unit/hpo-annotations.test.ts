import { strict as assert } from 'node:assert';
import { evidenceRates, FREQUENCY_RATES, frequencyRate, parseHpoAnnotations, type HpoAnnotation } from '../../src/vocabularies/hpo-annotations.js';

/**
 * Issue 48: Orphanet's HPO annotations (phenotype.hpoa) read into per-disease finding rates, the
 * offline step behind src/sources/ddxplus/knowledge/disease-knowledge.json.
 */
const near = (got: number | null, want: number) => assert.ok(got !== null && Math.abs(got - want) < 1e-12, `${got} ≉ ${want}`);
const row = (cells: string[]) => cells.join('\t');
const HEADER = row(['database_id', 'disease_name', 'qualifier', 'hpo_id', 'reference', 'evidence', 'onset', 'frequency', 'sex', 'modifier', 'aspect', 'biocuration']);
const annotation = (id: string, qualifier: string, hpo: string, frequency: string, aspect = 'P') => row([id, 'name', qualifier, hpo, `${id}`, 'TAS', '', frequency, '', '', aspect, 'ORPHA:orphadata[2025-01-16]']);

const HPOA = [
  '#description: "HPO annotations for rare diseases"',
  '#version: 2025-01-16',
  '#date: 2025-01-16',
  HEADER,
  annotation('ORPHA:797', '', 'HP:0012735', 'HP:0040282'), // sarcoidosis: cough, frequent
  annotation('ORPHA:797', '', 'HP:0002716', '3/10'), // lymphadenopathy, 3 of 10 patients
  annotation('ORPHA:797', 'NOT', 'HP:0001250', 'HP:0040285'), // a NOT row: no seizure
  annotation('ORPHA:797', '', 'HP:0000006', 'HP:0040282', 'I'), // inheritance (aspect I): not a finding
  annotation('ORPHA:797', '', 'HP:0003674', '', 'C'), // clinical course (aspect C)
  annotation('ORPHA:797', '', 'HP:0002094', ''), // dyspnea with no frequency: rate unknown
  annotation('ORPHA:589', '', 'HP:0000508', '25%'), // myasthenia gravis: ptosis, wanted too
  annotation('OMIM:100100', '', 'HP:0012735', 'HP:0040280'), // a disease nobody asked for
  '',
].join('\n');

describe('HPO annotations: Orphanet frequencies read into finding rates (issue 48)', () => {
  it('each HPO frequency term is the middle of its band, Obligate 1 and Excluded 0', () => {
    assert.equal(frequencyRate('HP:0040280'), 1);
    near(frequencyRate('HP:0040281'), (0.8 + 0.99) / 2); // Very frequent, 80-99%
    near(frequencyRate('HP:0040282'), (0.3 + 0.79) / 2); // Frequent, 30-79%
    near(frequencyRate('HP:0040283'), (0.05 + 0.29) / 2); // Occasional, 5-29%
    near(frequencyRate('HP:0040284'), (0.01 + 0.04) / 2); // Very rare, 1-4%
    assert.equal(frequencyRate('HP:0040285'), 0);
    assert.equal(Object.keys(FREQUENCY_RATES).length, 6, 'the six terms below HP:0040279');
    const bands = ['HP:0040280', 'HP:0040281', 'HP:0040282', 'HP:0040283', 'HP:0040284', 'HP:0040285'].map((t) => frequencyRate(t)!);
    assert.deepEqual([...bands].sort((a, b) => b - a), bands, 'from Obligate down to Excluded');
  });

  it('a count "3/10" and a percentage "25%" are read as they are, padded with spaces or not, and capped at 1', () => {
    assert.equal(frequencyRate('3/10'), 0.3);
    assert.equal(frequencyRate(' 25% '), 0.25);
    assert.equal(frequencyRate('12.5%'), 0.125);
    assert.equal(frequencyRate('7/7'), 1);
    assert.equal(frequencyRate('12/10'), 1, 'more patients than the cohort: capped');
    assert.equal(frequencyRate('150%'), 1);
  });

  it('an empty or unreadable cell has no rate (null, not 0)', () => {
    for (const cell of ['', '   ', '0/0', 'frequent', 'HP:0040279', 'HP:0012735', '3 of 10', '-5%', '1/2/3']) assert.equal(frequencyRate(cell), null, JSON.stringify(cell));
  });

  it('a phenotype.hpoa keeps only the wanted diseases’ positive phenotypic rows that carry a rate', () => {
    const got = parseHpoAnnotations(HPOA, new Set(['ORPHA:797', 'ORPHA:589']));
    assert.deepEqual(got, [
      { disease: 'ORPHA:797', hpo: 'HP:0012735', rate: 0.545 },
      { disease: 'ORPHA:797', hpo: 'HP:0002716', rate: 0.3 },
      { disease: 'ORPHA:589', hpo: 'HP:0000508', rate: 0.25 },
    ]);
    assert.deepEqual(parseHpoAnnotations(HPOA, new Set(['OMIM:100100'])), [{ disease: 'OMIM:100100', hpo: 'HP:0012735', rate: 1 }], 'the same file, another disease wanted');
    assert.deepEqual(parseHpoAnnotations(HPOA, new Set()), [], 'nothing wanted, nothing kept');
  });

  it('an Excluded (0%) row without NOT says the same as NOT and is left out: knowledge only raises a price', () => {
    const text = [HEADER, annotation('ORPHA:797', '', 'HP:0001250', 'HP:0040285'), annotation('ORPHA:797', '', 'HP:0012735', '1/2')].join('\n');
    assert.deepEqual(parseHpoAnnotations(text, new Set(['ORPHA:797'])).map((a) => a.hpo), ['HP:0012735']);
  });

  it('reads the columns by the header’s names, not their positions', () => {
    const swapped = ['#version: x', row(['hpo_id', 'aspect', 'frequency', 'qualifier', 'database_id']), row(['HP:0012735', 'P', '1/4', '', 'ORPHA:797'])].join('\n');
    assert.deepEqual(parseHpoAnnotations(swapped, new Set(['ORPHA:797'])), [{ disease: 'ORPHA:797', hpo: 'HP:0012735', rate: 0.25 }]);
  });
});

describe('HPO annotations: an evidence’s rate in a disease (the true-path rule)', () => {
  // A toy HPO: cough and hemoptysis below a respiratory abnormality; erythema nodosum below
  // panniculitis below a skin lesion.
  const parents: Record<string, string[]> = {
    'HP:0012735': ['HP:0002086'], // cough → respiratory abnormality
    'HP:0002105': ['HP:0002086'], // hemoptysis → respiratory abnormality
    'HP:0012219': ['HP:0012490'], // erythema nodosum → panniculitis
    'HP:0012490': ['HP:0011355'], // panniculitis → skin lesion
  };
  const ancestorsOf = (t: string): Set<string> => new Set((parents[t] ?? []).flatMap((p) => [p, ...ancestorsOf(p)]));
  const a = (hpo: string, rate: number): HpoAnnotation => ({ disease: 'ORPHA:797', hpo, rate });

  it('an annotation to a term below the evidence’s term counts for it (two levels up too)', () => {
    const rates = evidenceRates([a('HP:0012219', 0.17)], { E_skin: ['HP:0011355'], E_pannic: ['HP:0012490'] }, ancestorsOf);
    assert.deepEqual(rates, { E_skin: 0.17, E_pannic: 0.17 });
  });

  it('an annotation to a broader term says nothing of the narrower evidence', () => {
    assert.deepEqual(evidenceRates([a('HP:0002086', 0.9)], { E_cough: ['HP:0012735'] }, ancestorsOf), {});
  });

  it('of several annotations that reach an evidence, or several terms it asks about, the highest rate wins', () => {
    const anns = [a('HP:0012735', 0.17), a('HP:0002105', 0.545), a('HP:0012735', 0.025)];
    const rates = evidenceRates(anns, { E_resp: ['HP:0002086'], E_cough: ['HP:0012735'], E_either: ['HP:0012735', 'HP:0002105'] }, ancestorsOf);
    assert.deepEqual(rates, { E_resp: 0.545, E_cough: 0.17, E_either: 0.545 });
  });

  it('an evidence no annotation reaches is absent (unknown), not a rate of 0', () => {
    const rates = evidenceRates([a('HP:0012735', 0.545)], { E_cough: ['HP:0012735'], E_skin: ['HP:0011355'] }, ancestorsOf);
    assert.ok(!('E_skin' in rates), 'absent');
    assert.deepEqual(rates, { E_cough: 0.545 });
    assert.deepEqual(evidenceRates([], { E_cough: ['HP:0012735'] }, ancestorsOf), {}, 'no annotations: nothing known');
  });

  it('a term in or below one the evidence excludes does not count (an internal oedema is no visible swelling)', () => {
    const anns = [a('HP:0012219', 0.545), a('HP:0012490', 0.17), a('HP:0012735', 0.9)];
    const rates = evidenceRates(anns, { E_skin: ['HP:0011355'], E_resp: ['HP:0002086'] }, ancestorsOf, { exclude: { E_skin: ['HP:0012490'] } });
    assert.deepEqual(rates, { E_resp: 0.9 }, 'panniculitis and erythema nodosum below it excluded from E_skin; E_resp has no exclusion');
  });
});
