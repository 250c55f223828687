import assert from 'node:assert/strict';
import type { Finding } from '../../src/domain/record.js';
import { memoFeatureIds } from '../../src/eval/memo-feature-ids.js';
import { KG_BUILD_IDS, type FeatureIdScheme } from '../../src/followups/record-kg.js';
import { recordAnswer } from '../../src/followups/simulate.js';
import type { Question } from '../../src/followups/question-model.js';

const f = (code: string, valueCode: string | null = null, polarity: 'present' | 'absent' = 'present'): Finding => ({ text: `${code}=${valueCode}`, polarity, code, valueCode, question: null, valueText: null, antecedent: false });

describe('eval: each test finding\'s feature id computed once (issue 49)', () => {
  it('gives the scheme\'s ids and answers, hashing each finding once however many questions its record answers', () => {
    let calls = 0;
    const counting: FeatureIdScheme = { featureId: (x) => (calls++, KG_BUILD_IDS.featureId(x)), diseaseId: KG_BUILD_IDS.diseaseId };
    const memo = memoFeatureIds(counting);
    const rec = { id: 'v1', diagnosis: 'Pneumonia', icd10: null, age: 50, sex: 'F' as const, findings: [f('SNOMED:cough'), f('SNOMED:fever', null, 'absent'), f('LOINC:wbc', 'H')], initialFindingCode: null, text: '', location: 'v1' };
    const yesNo = (code: string): Question => ({ id: `q:${code}`, code, text: code, answerType: 'yes-no', options: [{ featureId: KG_BUILD_IDS.featureId(f(code)), valueCode: null, label: code }], antecedent: null });
    const questions = ['SNOMED:cough', 'SNOMED:fever', 'SNOMED:rash', 'LOINC:wbc', 'SNOMED:cough'].map(yesNo);
    for (const q of questions) assert.deepEqual(recordAnswer(q, rec, memo, 'open'), recordAnswer(q, rec, KG_BUILD_IDS, 'open'), q.id);
    assert.equal(calls, rec.findings.length, 'one hash per finding');
    assert.equal(memo.diseaseId('Pneumonia'), KG_BUILD_IDS.diseaseId('Pneumonia'));
    // Equal content in another finding object is its own entry (ids depend on content only, so the same id).
    assert.equal(memo.featureId(f('SNOMED:cough')), KG_BUILD_IDS.featureId(f('SNOMED:cough')));
    assert.equal(calls, rec.findings.length + 1);
  });
});
