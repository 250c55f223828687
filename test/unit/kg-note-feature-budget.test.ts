import assert from 'node:assert/strict';
import { noteFeatureBudget, overNoteFeatureBudget, resolveNoteFeatureRank } from '../../kg-build/note-feature-budget.js';

/**
 * The budget of features a KG learns from notes (issue 24: at most half as many features as
 * notes): each disease's best-backed findings stay, round-robin over the diseases.
 */
const said = (rows: Record<string, Record<string, number>>) => new Map(Object.entries(rows).map(([d, m]) => [d, new Map(Object.entries(m))]));

describe('kg-build note-feature-budget: how many features notes may teach the KG', () => {
  const notedPresent = said({
    'd:flu': { fever: 9, cough: 8, myalgia: 3, chills: 2 },
    'd:gout': { 'toe pain': 6, 'red toe': 5, beer: 2 },
    'd:cystitis': { dysuria: 7, frequency: 6, fever: 1 },
  });
  const candidates = new Set(['fever', 'cough', 'myalgia', 'chills', 'toe pain', 'red toe', 'beer', 'dysuria', 'frequency']);

  it('cuts nothing while the features are within share × notes', () => {
    assert.equal(overNoteFeatureBudget({ candidates, notedPresent, notes: 18 }, 0.5).size, 0);
    assert.equal(overNoteFeatureBudget({ candidates, notedPresent, notes: 4 }, Infinity).size, 0);
  });

  it('keeps each disease\'s best-backed finding before any disease\'s second one', () => {
    // 8 notes at 0.5: 4 features. Ranks: fever, toe pain, dysuria first (0), then cough, red toe, frequency (1).
    const cut = overNoteFeatureBudget({ candidates, notedPresent, notes: 8 }, 0.5);
    assert.equal(cut.size, 5);
    for (const k of ['fever', 'toe pain', 'dysuria']) assert.ok(!cut.has(k), `${k} is a disease's first finding`);
    // Among the second ones, the one stated in more notes stays (cough 8 > frequency 6 > red toe 5).
    assert.ok(!cut.has('cough'));
    for (const k of ['red toe', 'frequency', 'myalgia', 'chills', 'beer']) assert.ok(cut.has(k), `${k} is over budget`);
  });

  it('breaks a tie within a disease by how specific the finding is to it', () => {
    // flu states fever and cough in 4 notes each; fever is also cystitis's, so cough is more specific to flu.
    const tied = said({ 'd:flu': { fever: 4, cough: 4 }, 'd:cystitis': { dysuria: 5, fever: 3 } });
    const cut = overNoteFeatureBudget({ candidates: new Set(['fever', 'cough', 'dysuria']), notedPresent: tied, notes: 4 }, 0.5);
    assert.deepEqual([...cut], ['fever']);
  });

  it('never cuts what is not a candidate (a coded feature), and is the same whatever the input order', () => {
    const few = new Set(['beer', 'myalgia', 'fever']);
    const cut = overNoteFeatureBudget({ candidates: few, notedPresent, notes: 2 }, 0.5);
    assert.deepEqual([...cut].sort(), ['beer', 'myalgia']);
    const reversed = said(Object.fromEntries([...notedPresent.entries()].reverse().map(([d, m]) => [d, Object.fromEntries([...m.entries()].reverse())])));
    assert.deepEqual([...overNoteFeatureBudget({ candidates, notedPresent: reversed, notes: 8 }, 0.5)].sort(), [...overNoteFeatureBudget({ candidates, notedPresent, notes: 8 }, 0.5)].sort());
  });

  describe('the per-disease floor (issue 47: a small corpus of long real notes)', () => {
    const floor = { perDisease: 4, ceiling: 0.9 };

    it('gives each disease with notes its share when share × notes is less', () => {
      // 118 notes of 25 diseases: 59 by the share, 100 by the floor.
      assert.equal(noteFeatureBudget(118, 25, 0.5, floor), 100);
      // A large corpus keeps its share: the floor does not bind (540 notes, 49 diseases: 270 > 196).
      assert.equal(noteFeatureBudget(540, 49, 0.5, floor), 270);
    });

    it('never reaches one feature per note, however many diseases', () => {
      // 40 notes of 20 diseases: the floor asks 80, the ceiling allows 35 (fewer than 0.9 × 40 = 36).
      const b = noteFeatureBudget(40, 20, 0.5, floor);
      assert.equal(b, 35);
      assert.ok(b < 40);
      assert.equal(noteFeatureBudget(10, 10, 0.5, { perDisease: 4, ceiling: 1 }), 9, 'even at ceiling 1 the KG has fewer features than notes');
    });

    it('leaves no budget at share Infinity, and the share alone without a floor', () => {
      assert.equal(noteFeatureBudget(118, 25, Infinity, floor), Infinity);
      assert.equal(noteFeatureBudget(118, 25, 0.5), 59);
    });

    it('keeps a second finding of every disease that the share alone would cut', () => {
      // 4 notes: share 0.5 keeps 2 features; the floor of 2 per disease (3 diseases) keeps 6, at most 0.9 × 4 → 3.
      const byShare = overNoteFeatureBudget({ candidates, notedPresent, notes: 4 }, 0.5);
      const byFloor = overNoteFeatureBudget({ candidates, notedPresent, notes: 4 }, 0.5, { perDisease: 2, ceiling: 0.9 });
      assert.equal(candidates.size - byShare.size, 2);
      assert.equal(candidates.size - byFloor.size, 3);
      for (const k of ['fever', 'toe pain', 'dysuria']) assert.ok(!byFloor.has(k), `${k} is a disease's first finding`);
      // The floor counts the diseases with notes it is given, not only those in notedPresent.
      assert.equal(candidates.size - overNoteFeatureBudget({ candidates, notedPresent, notes: 20, diseases: 6 }, 0.1, { perDisease: 1, ceiling: 0.9 }).size, 6);
    });
  });

  describe('the association rank (issue 47: findings every disease states rank last)', () => {
    // 30 notes of 3 diseases (10 each). Pain is stated in 9 flu notes but in 8-9 of every disease's;
    // myalgia in 4 flu notes and none else. 'support' keeps pain first for flu, 'association' myalgia.
    const spread = said({
      'd:flu': { pain: 9, myalgia: 4 },
      'd:gout': { pain: 8, 'toe pain': 7 },
      'd:cystitis': { pain: 9, dysuria: 8 },
    });
    const notedPerDisease = new Map([['d:flu', 10], ['d:gout', 10], ['d:cystitis', 10]]);
    const all = new Set(['pain', 'myalgia', 'toe pain', 'dysuria']);
    const input = { candidates: all, notedPresent: spread, notes: 30, notedPerDisease };

    it('keeps each disease\'s most specific well-backed finding, not the one every disease states', () => {
      // share 0.1 of 30 notes: 3 features.
      assert.deepEqual([...overNoteFeatureBudget(input, 0.1, undefined, 'support')], ['myalgia']);
      assert.deepEqual([...overNoteFeatureBudget(input, 0.1, undefined, 'association')], ['pain']);
    });

    it('ranks a finding a disease states no more often than the rest last for that disease', () => {
      // Each disease's first is its own finding, never pain; in a budget of 2 the better-backed firsts stay (dysuria 8, toe pain 7 notes).
      assert.deepEqual([...overNoteFeatureBudget(input, 2 / 30, undefined, 'association')].sort(), ['myalgia', 'pain']);
    });

    it("'auto' ranks by association when the median disease has fewer than 10 notes, else by support", () => {
      const few = new Map([['d:flu', 9], ['d:gout', 4], ['d:cystitis', 30]]);
      assert.equal(resolveNoteFeatureRank('auto', few), 'association');
      assert.equal(resolveNoteFeatureRank('auto', notedPerDisease), 'support', 'median 10');
      assert.equal(resolveNoteFeatureRank('auto', new Map([['a', 9], ['b', 10]])), 'association', 'median 9.5');
      assert.equal(resolveNoteFeatureRank('auto', undefined), 'support');
      assert.equal(resolveNoteFeatureRank('support', few), 'support');
      // 10 notes each: as 'support'; 9 each: as 'association' (only the median decides).
      assert.deepEqual([...overNoteFeatureBudget(input, 0.1, undefined, 'auto')], ['myalgia']);
      const thin = { ...input, notedPerDisease: new Map([['d:flu', 9], ['d:gout', 9], ['d:cystitis', 9]]) };
      assert.deepEqual([...overNoteFeatureBudget(thin, 0.1, undefined, 'auto')], [...overNoteFeatureBudget(thin, 0.1, undefined, 'association')]);
    });

    it('is a configuration error without the notes per disease', () => {
      assert.throws(() => overNoteFeatureBudget({ candidates: all, notedPresent: spread, notes: 30 }, 0.1, undefined, 'association'), { name: 'ConfigError' });
    });
  });
});
