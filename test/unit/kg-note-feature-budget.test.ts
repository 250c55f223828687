import assert from 'node:assert/strict';
import { overNoteFeatureBudget } from '../../kg-build/note-feature-budget.js';

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
});
