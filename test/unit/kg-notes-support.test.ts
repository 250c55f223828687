import assert from 'node:assert/strict';
import { associationPValue, chiSquare1Survival } from '../../kg-build/diagnostic-association.js';
import { notesSupport } from '../../kg-build/notes-support.js';

/**
 * What the KG keeps of what notes say (issue 24): the association of an emergent phrase with the
 * diagnosis (one-vs-rest G-tests, Bonferroni over the diseases) and the two-notes support of a
 * manifestation learnt from notes, with thinly documented diseases keeping a single note's finding.
 */
const spread = (present: number[], notes = 12) => present.map((p) => ({ present: p, notes }));

describe('kg-build diagnostic-association: is a phrase of the notes diagnostic?', () => {
  it('χ²₁ survival is exact at the textbook points', () => {
    assert.ok(Math.abs(chiSquare1Survival(3.841) - 0.05) < 1e-3);
    assert.ok(Math.abs(chiSquare1Survival(6.635) - 0.01) < 1e-3);
    assert.equal(chiSquare1Survival(0), 1);
  });

  it('a phrase in 5 of one disease\'s 12 notes and none of 47 others is associated', () => {
    const shares = spread([5, ...Array(47).fill(0)]);
    assert.ok(associationPValue(shares) < 1e-6, String(associationPValue(shares)));
  });

  it('a phrase written once in each of 20 of 48 diseases is not', () => {
    const shares = spread([...Array(20).fill(1), ...Array(28).fill(0)]);
    assert.equal(associationPValue(shares), 1);
  });

  it('is Bonferroni-corrected: the best one-vs-rest p-value times the number of diseases', () => {
    // 3 of 12 notes against 0 of 12: G = 2·[3·ln 2 + 9·ln(9/10.5) + 12·ln(12/10.5)], one degree of freedom.
    const g = 2 * (3 * Math.log(2) + 9 * Math.log(9 / 10.5) + 12 * Math.log(12 / 10.5));
    assert.ok(Math.abs(associationPValue(spread([3, 0])) - 2 * chiSquare1Survival(g)) < 1e-12);
  });

  it('untestable inputs give 1: one disease, no notes showing it, every note showing it', () => {
    assert.equal(associationPValue(spread([3])), 1);
    assert.equal(associationPValue(spread([0, 0, 0])), 1);
    assert.equal(associationPValue(spread([12, 12])), 1);
  });
});

describe('kg-build notes-support: what a manifestation learnt from notes needs', () => {
  const noted = new Map([['d:well', 12], ['d:thin', 3], ['d:other', 40]]);
  const notedPresent = new Map([
    ['d:well', new Map([['e:peppery', 8], ['e:common', 1], ['t:flush', 1]])],
    ['d:thin', new Map([['e:common', 1]])],
    ['d:other', new Map([['e:common', 1]])],
  ]);
  const noteOnly = (k: string) => k.startsWith('e:') || k.startsWith('t:');
  const opts = { minNoteSupport: 2, thinDiseaseNotes: 5, emergentMaxP: 0.001, sharedFindingDiseases: 2 };

  it('drops a single note\'s finding of a well-documented disease and counts it', () => {
    const s = notesSupport({ noted, notedPresent, noteOnly }, opts);
    assert.equal(s.keeps('d:well', 't:flush', 1), false);
    assert.equal(s.keeps('d:well', 't:flush', 2), true);
    assert.equal(s.report.unsupportedEdges, 1);
  });

  it('keeps a single note\'s finding of a thinly documented disease, and reports such diseases', () => {
    const s = notesSupport({ noted, notedPresent, noteOnly }, opts);
    assert.equal(s.keeps('d:thin', 't:flush', 1), true);
    assert.equal(s.report.thinDiseases, 1);
  });

  it('never applies to coded features: a DDXPlus answer or an OMOP code counts from one record', () => {
    const s = notesSupport({ noted, notedPresent, noteOnly }, opts);
    assert.equal(s.keeps('d:well', 'c:E_91=', 1), true);
    assert.equal(s.report.unsupportedEdges, 0);
  });

  it('leaves out an emergent concept every disease writes alike, keeps the concentrated one', () => {
    const s = notesSupport({ noted, notedPresent, noteOnly }, opts);
    assert.equal(s.keeps('d:well', 'e:peppery', 8), true);
    assert.equal(s.keeps('d:well', 'e:common', 1), false);
    assert.equal(s.report.undiagnostic, 1);
  });

  it('emergentMaxP 1 and minNoteSupport 1 keep everything (the rules before issue 24\'s size goal)', () => {
    const s = notesSupport({ noted, notedPresent, noteOnly }, { minNoteSupport: 1, thinDiseaseNotes: 5, emergentMaxP: 1, sharedFindingDiseases: 2 });
    assert.equal(s.keeps('d:well', 'e:common', 1), true);
    assert.equal(s.keeps('d:well', 't:flush', 1), true);
    assert.deepEqual(s.report, { unsupportedEdges: 0, thinDiseases: 1, undiagnostic: 0, sharedFindingEdges: 0, overBudgetFeatures: 0 });
  });

  // A common finding's single-note edge: the feature is in the KG anyway, and one note of twelve
  // naming it is not none (naive Bayes' p0); a rare finding's single note stays out.
  it('settle keeps a single note\'s finding backed by 2+ notes in enough other diseases, counts it, and nothing else', () => {
    const s = notesSupport({ noted, notedPresent, noteOnly }, opts);
    const propose = (d: string, key: string, count: number) => ({ kept: s.keeps(d, key, count), key, d });
    const edges = [
      propose('d:well', 't:cough', 1), propose('d:thin', 't:cough', 2), propose('d:other', 't:cough', 3),
      propose('d:well', 't:flush', 1), propose('d:other', 't:flush', 2),
      propose('d:well', 'e:common', 1),
    ];
    assert.equal(s.report.unsupportedEdges, 2, 'cough and flush of d:well refused on their own');
    const kept = s.settle(edges).map((e) => `${e.d} ${e.key}`);
    assert.deepEqual(kept, ['d:well t:cough', 'd:thin t:cough', 'd:other t:cough', 'd:other t:flush']);
    assert.equal(s.report.sharedFindingEdges, 1);
    assert.equal(s.report.unsupportedEdges, 1, 'flush, backed in one other disease only, stays out');
    // An undiagnostic emergent concept is never brought back, however many edges it proposes.
    assert.ok(!kept.includes('d:well e:common'));
  });

  it('sharedFindingDiseases Infinity: settle keeps exactly what keeps kept', () => {
    const s = notesSupport({ noted, notedPresent, noteOnly }, { ...opts, sharedFindingDiseases: Infinity });
    const edges = [{ kept: s.keeps('d:well', 't:cough', 1), key: 't:cough' }, { kept: s.keeps('d:other', 't:cough', 3), key: 't:cough' }];
    assert.deepEqual(s.settle(edges), [edges[1]]);
    assert.equal(s.report.sharedFindingEdges, 0);
  });
});
