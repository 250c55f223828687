import assert from 'node:assert/strict';
import type { FeatureNode } from '../../src/domain/kg.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { nbScore, nbTables } from '../../src/reasoners/scoring-naive-bayes.js';

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
  it('a reported feature from notes still counts, present or absent', () => {
    const s = kg(true);
    const t = nbTables(s, { alpha: 0.03 });
    const present = (d: number) => nbScore(s, t, d, [{ feature: 0, present: true, weight: 1 }], { unreportedWeight: 1 }).score;
    const absent = (d: number) => nbScore(s, t, d, [{ feature: 0, present: false, weight: 1 }], { unreportedWeight: 1 }).score;
    assert.ok(present(0) > present(1));
    assert.ok(absent(0) < absent(1));
  });
});
