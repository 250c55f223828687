import assert from 'node:assert/strict';
import type { FeatureNode } from '../../src/domain/kg.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { textInput } from '../../src/query/query-service.js';
import type { FeatureMatch } from '../../src/query/contracts.js';
import { DEFAULT_EVIDENCE_OPTIONS, rankDiseases } from '../../src/reasoners/evidence-reasoner.js';
import { notesAloneParams, smallNotesCorpus } from '../../src/reasoners/small-notes-corpus.js';

/**
 * γ_notes on a small corpus of notes alone (src/reasoners/small-notes-corpus.ts, issue 47 round 4):
 * a KG whose median disease has fewer than 10 notes weighs the findings a note leaves unsaid more;
 * a larger notes corpus and a KG with coded features score as before.
 */
const feature = (id: string, fromNotes: boolean): FeatureNode => ({ id, text: id, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null, ...(fromNotes ? { fromNotes: true } : {}) });

/** Two diseases of n notes each: a's notes nearly all state fever and cough, b's a third state fever. */
function kg(n: number, fromNotes = true, split = false) {
  // split: a and b in subcategories of their own (for the vote prior).
  const disease = (id: string) => ({ id, name: id, subcategoryId: split ? `sub:${id.slice(4)}` : 'sub:all', icd10: null, recordCount: n, aliases: [] });
  const edge = (d: string, f: string, count: number) => ({ diseaseId: d, featureId: f, prevalence: count / n, count, source: 'ehr' as const });
  return buildSnapshot({
    categories: [{ id: 'cat:all', name: 'all' }],
    subcategories: split ? [{ id: 'sub:a', name: 'a', categoryId: 'cat:all' }, { id: 'sub:b', name: 'b', categoryId: 'cat:all' }] : [{ id: 'sub:all', name: 'all', categoryId: 'cat:all' }],
    diseases: [disease('dis:a'), disease('dis:b')],
    features: [feature('feat:fever', fromNotes), feature('feat:cough', fromNotes), feature('feat:rash', fromNotes)],
    manifestations: [edge('dis:a', 'feat:fever', n - 1), edge('dis:a', 'feat:cough', n - 1), edge('dis:b', 'feat:fever', Math.ceil(n / 3)), edge('dis:b', 'feat:rash', 1)],
  });
}

const match = (featureId: string): FeatureMatch => ({ findingIndex: 0, featureId, featureText: featureId, similarity: 1, polarity: 'present' } as FeatureMatch);
const scores = (s: ReturnType<typeof kg>, opts: object) => {
  const ctx = { input: textInput('fever'), findings: [], matches: [match('feat:fever')], votes: [], candidates: [], differencesKg: [], retrieved: [], profiles: null, followUps: [], snapshot: s, signal: null };
  return rankDiseases(ctx as never, { ...DEFAULT_EVIDENCE_OPTIONS, ...opts }).map((r) => [r.disease, r.score] as const);
};

describe('naive Bayes on a small corpus of notes alone (smallNotesUnreportedWeight)', () => {
  it('a corpus is small when its median disease has fewer than `below` notes', () => {
    assert.equal(smallNotesCorpus(kg(6), 10), true);
    assert.equal(smallNotesCorpus(kg(12), 10), false);
    assert.equal(smallNotesCorpus({ diseases: [] }, 10), false);
  });

  it('sets γ_notes on a small corpus only, and only when given', () => {
    const p = { alpha: 0.03, unreportedWeight: 1, notesUnreportedWeight: 0.1, notesBackoffBelow: 10, smallNotesUnreportedWeight: 0.6, voteWeight: 0.5, smallNotesVoteWeight: 0 };
    assert.equal(notesAloneParams(kg(6), p).notesUnreportedWeight, 0.6);
    assert.equal(notesAloneParams(kg(6), p).voteWeight, 0);
    assert.equal(notesAloneParams(kg(12), p).notesUnreportedWeight, 0.1);
    assert.equal(notesAloneParams(kg(12), p).voteWeight, 0.5);
    assert.equal(notesAloneParams(kg(6), { ...p, smallNotesUnreportedWeight: undefined }).notesUnreportedWeight, 0.1);
    assert.equal(notesAloneParams(kg(6), { ...p, smallNotesVoteWeight: undefined }).voteWeight, 0.5);
  });

  it('the subcategory vote weighs nothing on a small corpus of notes alone (smallNotesVoteWeight 0), as before elsewhere', () => {
    // a and b in subcategories of their own; every vote goes to b's.
    const split = (n: number, fromNotes = true) => kg(n, fromNotes, true);
    const ranked = (snap: ReturnType<typeof kg>, votes: object[]) => {
      const ctx = { input: textInput('fever'), findings: [], matches: [match('feat:fever')], votes, candidates: [], differencesKg: [], retrieved: [], profiles: null, followUps: [], snapshot: snap, signal: null };
      return rankDiseases(ctx as never, DEFAULT_EVIDENCE_OPTIONS).map((r) => [r.disease, r.score] as const);
    };
    const toB = [{ subcategoryId: 'sub:b', name: 'b', votes: 3 }];
    assert.deepEqual(ranked(split(6), toB), ranked(split(6), []));
    assert.notDeepEqual(ranked(split(12), toB), ranked(split(12), []), 'not small: the vote is a prior as before');
    assert.notDeepEqual(ranked(split(6, false), toB), ranked(split(6, false), []), 'coded features: the vote is a prior as before');
  });

  it('a note silent on the cough nearly all of a\'s notes state counts more against a on a small corpus', () => {
    const gap = (s: ReturnType<typeof kg>, opts: object) => {
      const r = new Map(scores(s, opts));
      return r.get('dis:a')! - r.get('dis:b')!;
    };
    const small = kg(6);
    assert.ok(gap(small, {}) < gap(small, { smallNotesUnreportedWeight: 0.1 }) - 0.01, `${gap(small, {})} vs ${gap(small, { smallNotesUnreportedWeight: 0.1 })}`);
    // Not small (12 notes a disease), or coded features: the option changes nothing.
    assert.deepEqual(scores(kg(12), {}), scores(kg(12), { smallNotesUnreportedWeight: 0.1 }));
    assert.deepEqual(scores(kg(6, false), {}), scores(kg(6, false), { smallNotesUnreportedWeight: 0.1 }));
  });
});
