import assert from 'node:assert/strict';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { assertNoLeakage, findLeakage, indexedRecords, LeakageError, recordFingerprint } from '../../src/eval/leakage.js';
import { interactiveStart, maskedStart } from '../../src/eval/dialogue-protocols.js';
import { sessionDialogue, type SessionPort } from '../../src/eval/session-dialogue.js';
import { loadTestSet } from '../../src/eval/test-set.js';
import { KG_BUILD_IDS } from '../../src/followups/record-kg.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import type { SessionView } from '../../src/sessions/schemas.js';

const finding = (code: string, text: string) => ({ text, polarity: 'present' as const, code, valueCode: null, question: null, valueText: null, antecedent: null });
function rec(id: string, diagnosis: string, codes: string[], text = `age: 30\nsex: male\n${codes.join('\n')}`): NormalizedRecord {
  return { id, diagnosis, icd10: null, age: 30, sex: 'M', findings: codes.map((c) => finding(c, `has ${c}`)), initialFindingCode: codes[0] ?? null, text, location: id };
}
async function* stream(rs: NormalizedRecord[]) {
  yield* rs;
}

describe('eval leakage check, test set and dialogue driver', () => {
  it('fingerprints content independently of line order and id', () => {
    assert.equal(recordFingerprint({ diagnosis: 'Flu', text: 'age: 3\nfever\ncough' }), recordFingerprint({ diagnosis: 'flu ', text: 'cough\nage: 3\nfever\n' }));
    assert.notEqual(recordFingerprint({ diagnosis: 'Flu', text: 'age: 3\nfever' }), recordFingerprint({ diagnosis: 'Cold', text: 'age: 3\nfever' }));
  });

  it('finds overlap by id and by content, and refuses with a clear LeakageError', () => {
    const index = indexedRecords([rec('ddxplus:train.csv:1', 'Flu', ['E_1']), rec('ddxplus:train.csv:2', 'Cold', ['E_2'])]);
    const clean = findLeakage([rec('ddxplus:test.csv:1', 'Flu', ['E_3'])], index);
    assert.deepEqual([clean.idOverlap, clean.contentOverlap], [0, 0]);
    assert.doesNotThrow(() => assertNoLeakage(clean, { allowContentDuplicates: false }));
    // The same patient written to another file by `dxgraph split`: other id, same content.
    const copied = findLeakage([rec('ddxplus:test.csv:9', 'Cold', ['E_2']), rec('ddxplus:train.csv:1', 'Other', ['E_9'])], index);
    assert.deepEqual([copied.tested, copied.idOverlap, copied.contentOverlap, copied.examples.length], [2, 1, 1, 2]);
    assert.throws(() => assertNoLeakage(copied, { allowContentDuplicates: true }), (e: unknown) => e instanceof LeakageError && /1 of 2 test records have their id/.test(e.message));
    const contentOnly = findLeakage([rec('ddxplus:test.csv:9', 'Cold', ['E_2'])], index);
    assert.throws(() => assertNoLeakage(contentOnly, { allowContentDuplicates: false }), /--allow-content-duplicates/);
    assert.doesNotThrow(() => assertNoLeakage(contentOnly, { allowContentDuplicates: true }));
  });

  it('samples --limit patients deterministically per seed, independent of the file order', async () => {
    const rs = Array.from({ length: 3000 }, (_, i) => rec(`r${i}`, 'Flu', ['E_1']));
    const a = (await loadTestSet(stream(rs), { limit: 25, seed: 1 })).map((r) => r.id);
    const b = (await loadTestSet(stream([...rs].reverse()), { limit: 25, seed: 1 })).map((r) => r.id);
    const c = (await loadTestSet(stream(rs), { limit: 25, seed: 2 })).map((r) => r.id);
    assert.deepEqual(a, b);
    assert.equal(a.length, 25);
    assert.notDeepEqual(a, c);
    assert.equal((await loadTestSet(stream(rs), { limit: null, seed: 1 })).length, 3000);
  });

  it('masks the most discriminative findings (highest sigma = fewest diseases) first', () => {
    const s = buildSnapshot({
      categories: [{ id: 'c', name: 'c' }], subcategories: [{ id: 's', name: 's', categoryId: 'c' }],
      diseases: ['a', 'b', 'c'].map((x) => ({ id: `dis:${x}`, name: x, subcategoryId: 's', icd10: null, recordCount: 1, aliases: [] })),
      features: ['E_1', 'E_2', 'E_3'].map((c) => ({ id: `f:${c}`, text: c, kind: 'ehr' as const, code: c, valueCode: null, question: null, valueText: null, antecedent: null })),
      // E_1 in three diseases, E_2 in two, E_3 in one: E_3 is the most discriminative.
      manifestations: [['a', 'E_1'], ['b', 'E_1'], ['c', 'E_1'], ['a', 'E_2'], ['b', 'E_2'], ['a', 'E_3']].map(([d, f]) => ({ diseaseId: `dis:${d}`, featureId: `f:${f}`, prevalence: 1, count: 1, source: 'ehr' as const })),
    });
    const r = rec('t', 'a', ['E_1', 'E_2', 'E_3']);
    assert.deepEqual(maskedStart(s, r, 0.33, KG_BUILD_IDS).findings.map((f) => f.code), ['E_2', 'E_1']);
    assert.deepEqual(maskedStart(s, r, 0.66, KG_BUILD_IDS).findings.map((f) => f.code), ['E_1']);
    assert.deepEqual(maskedStart(s, r, 1, KG_BUILD_IDS).findings, []);
    assert.deepEqual(maskedStart(s, r, 0, KG_BUILD_IDS).findings.length, 3);
    assert.deepEqual(interactiveStart(r).findings.map((f) => f.code), ['E_1']);
  });

  it('drives a session: records top-1 at each checkpoint and answers from the record', async () => {
    const r = rec('t', 'Flu', ['E_1', 'E_7']);
    const featureOf = (code: string) => KG_BUILD_IDS.featureId(finding(code, `has ${code}`));
    const answers: unknown[] = [];
    let turn = 0;
    const view = (): SessionView => ({
      sessionId: 's1', createdAt: '', expiresAt: '', ranker: 'sigma', answered: turn, turnsLeft: 10, insufficient: null, version: turn + 1, buildId: null,
      differential: [{ diseaseId: turn >= 2 ? 'dis:flu' : 'dis:cold', disease: '', probability: turn >= 2 ? 0.95 : 0.4 }],
      questions: [{ id: `q:E_${turn + 6}`, text: '?', answerType: 'yes-no', options: [], score: 1, ranker: 'sigma', featureId: featureOf(`E_${turn + 6}`) }],
      stop: { stop: turn >= 2, reason: turn >= 2 ? 'confident' : null, topProbability: 0, confidence: 0.9 },
    });
    const port: SessionPort = {
      start: async () => view(),
      answer: async (_owner, _id, req) => {
        answers.push(req.answers[0]);
        turn++;
        return view();
      },
      end: async () => undefined,
    };
    const d = await sessionDialogue(port, r, interactiveStart(r), { ranker: 'sigma', checkpoints: [0, 1, 3], scheme: KG_BUILD_IDS });
    assert.deepEqual([...d.run.topAt], [[0, 'dis:cold'], [1, 'dis:cold'], [3, 'dis:flu']]);
    assert.equal(d.run.questionsToConfidence, 2);
    // E_6 is not in the record, E_7 is.
    assert.deepEqual(answers.slice(0, 2), [{ questionId: 'q:E_6', answer: { type: 'no' } }, { questionId: 'q:E_7', answer: { type: 'yes' } }]);
    assert.equal(d.answerMs.length, 3);
  });
});
