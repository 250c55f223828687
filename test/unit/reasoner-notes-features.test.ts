import assert from 'node:assert/strict';
import type { FeatureNode } from '../../src/domain/kg.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { nbScore, nbTables } from '../../src/reasoners/scoring-naive-bayes.js';
import { nbScoresAll } from '../../src/reasoners/scoring-sparse.js';

/**
 * Issue 24: a feature learnt from notes only is never weakly absent for being unreported (a note's
 * unwritten finding is unknown), while a coded feature still is (a questionnaire's unanswered
 * question is a no).
 */
const feature = (id: string, fromNotes: boolean): FeatureNode => ({ id, text: id, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null, ...(fromNotes ? { fromNotes: true } : {}) });

function kg(fromNotes: boolean) {
  const disease = (id: string) => ({ id, name: id, subcategoryId: 'sub:all', icd10: null, recordCount: 10, aliases: [] });
  return buildSnapshot({
    categories: [{ id: 'cat:all', name: 'all' }],
    subcategories: [{ id: 'sub:all', name: 'all', categoryId: 'cat:all' }],
    diseases: [disease('dis:a'), disease('dis:b')],
    features: [feature('feat:rash', fromNotes), feature('feat:cough', false)],
    // a shows the rash in 9 of 10 records, b never: an unreported rash weighs against a only when it counts as absent.
    manifestations: [{ diseaseId: 'dis:a', featureId: 'feat:rash', prevalence: 0.9, count: 9, source: 'ehr' }, { diseaseId: 'dis:b', featureId: 'feat:cough', prevalence: 0.5, count: 5, source: 'ehr' }],
  });
}

describe('naive Bayes: features learnt from notes only (issue 24)', () => {
  const gap = (fromNotes: boolean) => {
    const s = kg(fromNotes);
    const t = nbTables(s, { alpha: 0.03 });
    const score = (d: number) => nbScore(s, t, d, [], { unreportedWeight: 1 }).score;
    return score(1) - score(0);
  };
  it('an unreported coded feature counts against the disease that usually shows it', () => assert.ok(gap(false) > 1, String(gap(false))));
  it('an unreported feature from notes counts against nobody', () => assert.ok(gap(true) < gap(false) - 1, `${gap(true)} vs ${gap(false)}`));
  it('with γ_notes an unreported feature from notes counts against the disease that names it, at γ of a coded one', () => {
    const s = kg(true);
    const t = nbTables(s, { alpha: 0.03, notesUnreportedWeight: 0.1 });
    const gamma = nbScore(s, t, 1, [], { unreportedWeight: 1 }).score - nbScore(s, t, 0, [], { unreportedWeight: 1 }).score;
    // a: log(1 − 9.03/10.06) for the unreported rash against b's log(1 − p0); with γ it is a tenth of the coded gap.
    const coded = gap(false);
    assert.ok(gamma > gap(true) + 0.1 && gamma < coded / 5, `${gamma} vs ${gap(true)} / ${coded}`);
  });
  it('sparse scoring equals exhaustive scoring with γ_notes', () => {
    const s = kg(true);
    const t = nbTables(s, { alpha: 0.03, notesAlpha: 0.3, notesUnreportedWeight: 0.1 });
    const one = [{ feature: 1, present: true, weight: 1 }];
    assert.deepEqual([...nbScoresAll(s, t, one, { unreportedWeight: 0.7 }, false)], [...nbScoresAll(s, t, one, { unreportedWeight: 0.7 }, true)]);
  });
  it('a reported feature from notes still counts, present or absent', () => {
    const s = kg(true);
    const t = nbTables(s, { alpha: 0.03 });
    const present = (d: number) => nbScore(s, t, d, [{ feature: 0, present: true, weight: 1 }], { unreportedWeight: 1 }).score;
    const absent = (d: number) => nbScore(s, t, d, [{ feature: 0, present: false, weight: 1 }], { unreportedWeight: 1 }).score;
    assert.ok(present(0) > present(1));
    assert.ok(absent(0) < absent(1));
  });
});

describe('naive Bayes: α of the features learnt from notes (notesAlpha)', () => {
  // Reported present: the rash (from notes in kg(true)) and the cough (coded). b never showed the rash, a never the cough.
  const reported = [{ feature: 0, present: true, weight: 1 }, { feature: 1, present: true, weight: 1 }];
  it('prices a notes feature a disease never showed at α_notes / (n + 2α_notes), a coded one at α / (n + 2α)', () => {
    const s = kg(true);
    const t = nbTables(s, { alpha: 0.03, notesAlpha: 0.3 });
    assert.ok(Math.abs(t.logP0Notes[1]! - Math.log(0.3 / 10.6)) < 1e-12);
    assert.ok(Math.abs(t.logP0[0]! - Math.log(0.03 / 10.06)) < 1e-12);
    // Shown edges too: the rash in 9 of a's 10 records is smoothed with α_notes.
    assert.ok(Math.abs(t.logP[0]![0]! - Math.log(9.3 / 10.6)) < 1e-12);
  });
  it('changes nothing for coded features: a KG without notes features scores the same with any α_notes', () => {
    const s = kg(false);
    const a = nbScoresAll(s, nbTables(s, { alpha: 0.03 }), reported, { unreportedWeight: 1 }, true);
    const b = nbScoresAll(s, nbTables(s, { alpha: 0.03, notesAlpha: 0.5 }), reported, { unreportedWeight: 1 }, true);
    assert.deepEqual([...a], [...b]);
  });
  it('a larger α_notes makes a notes feature a disease never showed cost it less', () => {
    const s = kg(true);
    const gap = (notesAlpha: number) => {
      const sc = nbScoresAll(s, nbTables(s, { alpha: 0.03, notesAlpha }), [reported[0]!], { unreportedWeight: 1 }, true);
      return sc[0]! - sc[1]!;
    };
    assert.ok(gap(0.3) < gap(0.03) - 1, `${gap(0.3)} vs ${gap(0.03)}`);
  });
  it('sparse scoring equals exhaustive scoring with notes features (b is scored per p0)', () => {
    const s = kg(true);
    const t = nbTables(s, { alpha: 0.03, notesAlpha: 0.3 });
    const q = { unreportedWeight: 0.5 };
    assert.deepEqual([...nbScoresAll(s, t, [reported[0]!], q, false)], [...nbScoresAll(s, t, [reported[0]!], q, true)]);
    assert.deepEqual([...nbScoresAll(s, t, reported, q, false)], [...nbScoresAll(s, t, reported, q, true)]);
  });
});
