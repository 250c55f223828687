import assert from 'node:assert/strict';
import type { FeatureNode } from '../../src/domain/kg.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { nbScore, nbTables } from '../../src/reasoners/scoring-naive-bayes.js';
import { nbScoresAll } from '../../src/reasoners/scoring-sparse.js';

/**
 * The m-estimate of features learnt from notes (src/reasoners/notes-backoff.ts, issue 47): a
 * finding nearly every disease's notes state (pain) costs a disease whose few notes happened not
 * to state it little; one that only another disease's notes state (myalgia) costs it as before.
 */
const feature = (id: string, fromNotes: boolean): FeatureNode => ({ id, text: id, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null, ...(fromNotes ? { fromNotes: true } : {}) });

function kg() {
  const disease = (id: string) => ({ id, name: id, subcategoryId: 'sub:all', icd10: null, recordCount: 5, aliases: [] });
  const edge = (d: string, f: string, count: number) => ({ diseaseId: d, featureId: f, prevalence: count / 5, count, source: 'ehr' as const });
  return buildSnapshot({
    categories: [{ id: 'cat:all', name: 'all' }],
    subcategories: [{ id: 'sub:all', name: 'all', categoryId: 'cat:all' }],
    diseases: [disease('dis:a'), disease('dis:b'), disease('dis:c')],
    features: [feature('feat:pain', true), feature('feat:myalgia', true), feature('feat:cough', false)],
    // Pain: 5 of a's notes and 5 of c's, none of b's five. Myalgia: 3 of a's only. Cough (coded): b.
    manifestations: [edge('dis:a', 'feat:pain', 5), edge('dis:c', 'feat:pain', 5), edge('dis:a', 'feat:myalgia', 3), edge('dis:b', 'feat:cough', 2)],
  });
}

const params = { alpha: 0.03, notesAlpha: 0.3, notesUnreportedWeight: 0.1, minRecords: 5 };
const present = (f: number) => ({ feature: f, present: true, weight: 1 });

describe('naive Bayes: the m-estimate of features learnt from notes (notesBackoff)', () => {
  it('is today\'s model at m = 0', () => {
    const s = kg();
    const reported = [present(0), present(1), present(2)];
    const a = nbScoresAll(s, nbTables(s, params), reported, { unreportedWeight: 0.5 }, true);
    const b = nbScoresAll(s, nbTables(s, { ...params, notesBackoff: 0 }), reported, { unreportedWeight: 0.5 }, true);
    assert.deepEqual([...a], [...b]);
  });

  it('prices an unseen notes feature at (α_notes + m·q) / (n + 2α_notes + m), q its share of all notes', () => {
    const s = kg();
    const t = nbTables(s, { ...params, notesBackoff: 2 });
    // Pain: 10 of 15 notes. b never stated it: (0.3 + 2·10/15) / (5 + 0.6 + 2).
    const sc = nbScore(s, t, 1, [present(0)], { unreportedWeight: 0 });
    assert.ok(Math.abs(sc.contributions[0]! - Math.log((0.3 + (2 * 10) / 15) / 7.6)) < 1e-12, String(sc.contributions[0]));
    // A shown edge: a's pain in 5 of 5, (5 + 0.3 + 2·10/15) / 7.6.
    assert.ok(Math.abs(t.logP[0]![s.manifestations[0]!.position.get(0)!]! - Math.log((5 + 0.3 + (2 * 10) / 15) / 7.6)) < 1e-12);
  });

  it('a common finding costs the disease whose notes lack it less than a rare one does', () => {
    const s = kg();
    const gap = (m: number, f: number) => {
      const sc = nbScoresAll(s, nbTables(s, { ...params, notesBackoff: m }), [present(f)], { unreportedWeight: 0 }, true);
      return sc[0]! - sc[1]!;
    };
    assert.ok(gap(2, 0) < gap(0, 0) - 0.5, `pain: ${gap(2, 0)} vs ${gap(0, 0)}`);
    // Myalgia (3 of 15 notes, all a's) loses half as much: it still says a, not b.
    assert.ok(gap(0, 1) - gap(2, 1) < (gap(0, 0) - gap(2, 0)) / 1.5, `myalgia ${gap(0, 1)} -> ${gap(2, 1)}, pain ${gap(0, 0)} -> ${gap(2, 0)}`);
    assert.ok(gap(2, 1) > gap(2, 0));
  });

  it('backs off only the diseases with fewer than notesBackoffBelow notes (a disease with many estimates its own rates)', () => {
    const s = kg();
    const reported = [present(0), present(1), { feature: 0, present: false, weight: 1 }];
    const score = (p: object) => [...nbScoresAll(s, nbTables(s, { ...params, ...p }), reported.slice(0, 2), { unreportedWeight: 0.5 }, true)];
    // Every disease here has 5 notes: below 5 backs none off, below 6 all of them.
    assert.deepEqual(score({ notesBackoff: 2, notesBackoffBelow: 5 }), score({ notesBackoff: 0 }));
    assert.deepEqual(score({ notesBackoff: 2, notesBackoffBelow: 6 }), score({ notesBackoff: 2 }));
    assert.notDeepEqual(score({ notesBackoff: 2 }), score({ notesBackoff: 0 }));
    const t = nbTables(s, { ...params, notesBackoff: 2, notesBackoffBelow: 5 });
    assert.deepEqual([...nbScoresAll(s, t, reported, { unreportedWeight: 0.7 }, false)], [...nbScoresAll(s, t, reported, { unreportedWeight: 0.7 }, true)]);
  });

  it('leaves coded features alone and equals the exhaustive score when sparse', () => {
    const s = kg();
    const coded = (m: number) => nbScoresAll(s, nbTables(s, { ...params, notesBackoff: m }), [present(2)], { unreportedWeight: 0 }, true);
    assert.deepEqual([...coded(0)].map((x, d) => x - coded(0)[0]! - (coded(2)[d]! - coded(2)[0]!)).map((x) => Math.abs(x) < 1e-9), [true, true, true]);
    const t = nbTables(s, { ...params, notesBackoff: 2 });
    for (const reported of [[present(0)], [present(1), present(2)], [{ feature: 0, present: false, weight: 1 }]]) {
      assert.deepEqual([...nbScoresAll(s, t, reported, { unreportedWeight: 0.7 }, false)], [...nbScoresAll(s, t, reported, { unreportedWeight: 0.7 }, true)]);
    }
  });
});
