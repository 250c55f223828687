import assert from 'node:assert/strict';
import { LexicalIndexBuilder } from '../../kg-build/lexical-index.js';
import { LexicalIndex } from '../../src/query/lexical-index.js';
import { DiseaseProfiles, rowDiseases } from '../../src/query/disease-profiles.js';
import { contextPriors } from '../../src/reasoners/evidence-priors.js';

const NOTES = [
  { text: 'cough and fever for three days, sputum yellow', disease: 0 },
  { text: 'cough for two days, sore throat, fever', disease: 0 },
  { text: 'drooling, cannot swallow saliva, fever and muffled voice', disease: 1 },
  { text: 'burning pain in the stomach after meals, sour taste', disease: 2 },
  { text: 'stomach burning at night, sour taste in the mouth', disease: 2 },
  { text: 'a record whose diagnosis the KG does not have', disease: -1 },
];

function index(): LexicalIndex {
  const b = new LexicalIndexBuilder({ salt: 11 });
  for (const n of NOTES) b.add(n.text);
  return new LexicalIndex(b.finish());
}

/** The reference: sum each disease's rows as dense vectors, normalise, dot with the query row. */
function bruteForce(ix: LexicalIndex, text: string, diseases: number): number[] {
  const a = ix.arrays;
  const rows = NOTES.map(() => new Map<number, number>());
  for (let t = 0; t < a.terms.length; t++) for (let p = a.offsets[t]!; p < a.offsets[t + 1]!; p++) rows[a.postingRows[p]!]!.set(t, a.postingWeights[p]!);
  const q = new Map(ix.queryRow(text));
  return Array.from({ length: diseases }, (_, d) => {
    const c = new Map<number, number>();
    NOTES.forEach((n, r) => n.disease === d && rows[r]!.forEach((w, t) => c.set(t, (c.get(t) ?? 0) + w)));
    const norm = Math.sqrt([...c.values()].reduce((s, w) => s + w * w, 0));
    return norm === 0 ? 0 : [...c].reduce((s, [t, w]) => s + (q.get(t) ?? 0) * (w / norm), 0);
  });
}

describe('disease profiles (nearest centroid over the lexical index)', () => {
  const ix = index();
  const profiles = DiseaseProfiles.fromLexical(ix, Int32Array.from(NOTES, (n) => n.disease), 4);

  it('gives each disease the cosine of the description with the sum of its notes, as a dense computation does', () => {
    for (const text of ['fever and cough, yellow sputum', 'sour taste and burning stomach', 'drooling with fever', 'muffled voice']) {
      const got = profiles.similarities(text);
      const want = bruteForce(ix, text, 4);
      want.forEach((w, d) => assert.ok(Math.abs(got[d]! - w) < 1e-5, `${text}: disease ${d} ${got[d]} vs ${w}`));
    }
  });

  it('ranks the disease whose notes share the rare words first; a disease without records and unknown words score 0', () => {
    const s = profiles.similarities('burning in the stomach with a sour taste');
    assert.equal([...s].indexOf(Math.max(...s)), 2);
    assert.equal(s[3], 0, 'disease 3 has no record');
    assert.deepEqual([...profiles.similarities('photophobia')], [0, 0, 0, 0]);
  });

  it('maps index rows to snapshot diseases by record id; unknown diseases are -1', () => {
    const records = new Map([['a', { diseaseId: 'd:x' }], ['b', { diseaseId: null }], ['c', { diseaseId: 'd:gone' }]]);
    assert.deepEqual([...rowDiseases(['a', 'b', 'c', 'missing'], records, new Map([['d:x', 5]]))], [5, -1, -1, -1]);
  });

  it('uses only the rows read from notes when the build flags them (a KG from coded records and notes)', () => {
    const records = new Map([['coded', { diseaseId: 'd:x' }], ['note', { diseaseId: 'd:x', notes: true }], ['note2', { diseaseId: 'd:y', notes: true }]]);
    assert.deepEqual([...rowDiseases(['coded', 'note', 'note2'], records, new Map([['d:x', 0], ['d:y', 1]]))], [-1, 0, 1]);
  });

  it('enters the evidence reasoner as π · cosine with an evidence line, and not at all with π = 0', () => {
    const snapshot = { diseases: [{ name: 'Bronchitis' }, { name: 'Epiglottitis' }, { name: 'GERD' }, { name: 'Other' }], subcategories: [], diseaseSubcategory: [], diseaseIndex: new Map() };
    const ctx = { input: { age: null, sex: null }, votes: [], retrieved: [], matches: [], differencesKg: [], snapshot, profiles: Float64Array.from([0.1, 0, 0.5, 0]) } as never;
    const on = contextPriors(ctx, { voteWeight: 0, knnWeight: 0, keyDifferenceWeight: 0, profileWeight: 10 });
    assert.deepEqual([...on.total], [1, 0, 5, 0]);
    assert.match(on.lines[2]!.join('\n'), /notes of GERD: cosine 0\.50/);
    assert.deepEqual(on.lines[1], []);
    const off = contextPriors(ctx, { voteWeight: 0, knnWeight: 0, keyDifferenceWeight: 0, profileWeight: 0 });
    assert.deepEqual([...off.total], [0, 0, 0, 0]);
  });
});
