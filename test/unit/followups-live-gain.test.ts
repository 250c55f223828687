import { strict as assert } from 'node:assert';
import { ddxplusSampleWithHints } from '../support/ddxplus-sample-hints.js';
import { generateVocabKg, type VocabCase } from '../../bench/scale/vocab-kg.js';
import { FollowupEngine } from '../../src/followups/engine.js';
import { informationGainRanker } from '../../src/followups/information-gain.js';
import { FollowupModel } from '../../src/followups/model.js';
import { posterior, rankDifferential } from '../../src/followups/posterior.js';
import { buildQuestionCatalogue, type AnswerTypeHints } from '../../src/followups/question-model.js';
import { followupKgFromSnapshot } from '../../src/followups/snapshot-kg.js';
import type { KgSnapshot } from '../../src/query/kg-snapshot.js';

/**
 * Information gain over the live diseases (information-gain-live.ts) must rank the follow-ups
 * as scoring every open question does: same questions, same gains, same order, for yes/no,
 * one-of and several-of questions (DDXPlus answer types) and on a generated 1,000-diagnosis KG.
 */
function engines(s: KgSnapshot, hints: AnswerTypeHints | null): [FollowupEngine, FollowupEngine] {
  const model = new FollowupModel(followupKgFromSnapshot(s));
  const catalogue = buildQuestionCatalogue(model.features, hints ? { hints } : {});
  return [
    new FollowupEngine(model, catalogue, { rankers: [informationGainRanker()] }),
    new FollowupEngine(model, catalogue, { rankers: [informationGainRanker({ exhaustive: true })] }),
  ];
}

function assertSame(s: KgSnapshot, cases: VocabCase[], hints: AnswerTypeHints | null): number {
  const [live, ref] = engines(s, hints);
  let compared = 0;
  cases.forEach((c, i) => {
    for (const present of [c.present, c.present.slice(0, 2)]) {
      for (const questions of [3, 10]) {
        const state = { evidence: present.map((f) => ({ featureId: s.features[f]!.id, present: true })), answers: [], demographics: null, prior: null, candidateDiseases: null };
        const opts = { ranker: 'information-gain' as const, questions, differential: 5, confidence: 1.1 };
        const a = live.assess(state, opts);
        const b = ref.assess(state, opts);
        const where = `case ${i}, ${present.length} findings, ${questions} questions`;
        assert.deepEqual(a.questions.map((q) => [q.question.id, q.score, q.featureId]), b.questions.map((q) => [q.question.id, q.score, q.featureId]), where);
        assert.deepEqual(a.differential, b.differential, where);
        compared += a.questions.length;
      }
    }
  });
  return compared;
}

describe('follow-ups: information gain over the live diseases equals scoring every question (issue 29)', function () {
  this.timeout(120_000);

  it('on the DDXPlus sample with its answer types', async () => {
    const { snapshot, cases, hints } = await ddxplusSampleWithHints(15);
    assert.ok(assertSame(snapshot, cases, hints) > 0);
  });

  it('on a generated 1,000-diagnosis KG', () => {
    const { snapshot, cases } = generateVocabKg({ diseases: 1000, features: 5000, records: 20_000, cases: 4, seed: 4 });
    assert.ok(assertSame(snapshot, cases, null) > 0);
  });

  it('the differential is the first entries of the full sort (ties by id)', () => {
    const { snapshot } = generateVocabKg({ diseases: 300, features: 800, records: 3000, cases: 1, seed: 9 });
    const model = new FollowupModel(followupKgFromSnapshot(snapshot));
    const p = posterior(model, { answers: [], evidence: [], demographics: null, prior: null });
    const full = model.diseases.map((d, i) => ({ diseaseId: d.id, disease: d.name, probability: p[i]! })).sort((a, b) => b.probability - a.probability || a.diseaseId.localeCompare(b.diseaseId));
    assert.deepEqual(rankDifferential(model, p, 25), full.slice(0, 25));
  });
});
