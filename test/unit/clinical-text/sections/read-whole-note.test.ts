import assert from 'node:assert/strict';
import { InputError } from '../../../../src/errors.js';
import { capFindings, tooManyClauses } from '../../../../src/query/cap-findings.js';
import { clauseBreaks, diagnose, type DiagnoseDeps } from '../../../../src/query/diagnose.js';
import { SigmaRanker } from '../../../../src/query/followups-sigma.js';
import { textInput } from '../../../../src/query/query-service.js';
import { EvidenceReasoner } from '../../../../src/reasoners/evidence-reasoner.js';
import type { InputFinding } from '../../../../src/clinical-text/findings.js';
import { tinyKg } from '../../../support/query-kg.js';

/**
 * No real note is refused for being a note (issue 47): over DXGRAPH_MAX_FINDINGS the presentation
 * is read first and the trace says what was left out; the clause guard still refuses a hostile
 * list. The notes are written for the test, in the style of a long H&P.
 */
const f = (text: string, section?: string): InputFinding => ({ text, polarity: 'present', code: null, valueCode: null, ...(section ? { section } : {}) });

/** A long H&P: a family history, medications and a review of systems of many lines, then the HPI and exam. */
function longNote(lines: number): string {
  const block = (heading: string, item: (i: number) => string) => `${heading}:\n${Array.from({ length: lines }, (_, i) => `${i + 1}.  ${item(i)}.`).join('\n')}\n`;
  return [
    block('FAMILY HISTORY', (i) => `Aunt ${i} with diabetes`),
    block('MEDICATIONS', (i) => `Drug${'abcdefghij'[i % 10]}${i} ${10 + i} mg daily`),
    block('REVIEW OF SYSTEMS', (i) => `Denies symptom${i}`),
    'HISTORY OF PRESENT ILLNESS:  Three days of fever and a rash on both legs.',
    'PHYSICAL EXAMINATION:  Petechial rash on the legs.  Neck: no meningismus.',
    'ASSESSMENT:  Viral exanthem.',
  ].join('\n');
}

describe('clinical-text sections: a whole note is read, never refused for its length (issue 47)', () => {
  it('keeps the request\'s own findings, then presentation, exam and results before history and treatment, in text order', () => {
    const fs = [f('warfarin', 'meds'), f('HTN', 'pmh'), f('crackles', 'exam'), f('cough', 'hpi'), f('no fever', 'ros'), f('WBC 15', 'labs'), f('loose words')];
    const { findings, read } = capFindings([f('coded'), ...fs], 1, 5);
    assert.deepEqual(findings.map((x) => x.text), ['coded', 'crackles', 'cough', 'WBC 15', 'loose words']);
    assert.deepEqual(read, { read: 5, leftOut: 3, bySection: { meds: 1, pmh: 1, ros: 1 } });
    assert.deepEqual(capFindings(fs, 0, 50).read, { read: fs.length, leftOut: 0, bySection: {} });
  });

  it('the clause guard refuses a list of words, not a note of the same length', () => {
    const hostile = 'fever, '.repeat(2800);
    assert.ok(tooManyClauses(hostile, clauseBreaks(hostile), 1000));
    const prose = 'The patient reports intermittent substernal chest pressure radiating to the left arm, worse with exertion and relieved by rest. '.repeat(300);
    assert.ok(prose.length > 35_000 && clauseBreaks(prose) > 1000);
    assert.equal(tooManyClauses(prose, clauseBreaks(prose), 1000), false);
  });

  it('diagnose reads a note over the findings bound presentation first and says so in the trace', async () => {
    const fx = await tinyKg();
    const deps: DiagnoseDeps = { graph: { read: async () => [] }, ...fx, reasoners: [new EvidenceReasoner()], followUpRanker: new SigmaRanker(), differencesPerDisease: 10, limits: { maxFindings: 20, llmBudget: { wallMs: 1000, maxCalls: 1 } } };
    const res = await diagnose(deps, textInput(longNote(30)));
    const note = res.trace.decomposition.note!;
    assert.ok(note, 'the trace says how the note was read');
    assert.equal(note.findingsRead, 20);
    assert.equal(res.trace.findings.length, 20);
    assert.ok(note.findingsLeftOut >= 70, `${note.findingsLeftOut} left out`);
    assert.deepEqual(note.sectionsLeftOut.map((s) => s.kind), ['assessment']);
    // The HPI and the exam were read; what was left out is history, treatment and review of systems.
    assert.ok(res.trace.findings.some((x) => /fever/.test(x.text) && x.section === 'hpi'));
    assert.ok(res.trace.findings.some((x) => /petechial rash/i.test(x.text) && x.section === 'exam'));
    const by = note.findingsLeftOutBySection;
    for (const k of Object.keys(by)) assert.ok(['family', 'meds', 'ros'].includes(k), `${k} left out`);
    assert.equal(Object.values(by).reduce((a, b) => a + b, 0), note.findingsLeftOut);
    assert.ok(!res.trace.findings.some((x) => /exanthem/i.test(x.text)));
  });

  it('a note that is all conclusion (an operative report) is answered as insufficient, not refused; a text with nothing in it still is', async () => {
    const fx = await tinyKg();
    const deps: DiagnoseDeps = { graph: { read: async () => [] }, ...fx, reasoners: [new EvidenceReasoner()], followUpRanker: new SigmaRanker(), differencesPerDisease: 10 };
    const report = 'PREOPERATIVE DIAGNOSIS:  Left inguinal hernia.\nPOSTOPERATIVE DIAGNOSIS:  Same.\nPROCEDURE:  Open left inguinal hernia repair with mesh.\nANESTHESIA:  General.\nDESCRIPTION OF PROCEDURE:  The patient was prepped and draped in the usual sterile fashion.';
    const res = await diagnose(deps, textInput(report));
    assert.equal(res.trace.findings.length, 0);
    assert.equal(res.insufficient?.reason, 'no-finding-matched');
    assert.ok(res.trace.decomposition.note!.sectionsLeftOut.length >= 4);
    await assert.rejects(diagnose(deps, textInput('...')), (e: unknown) => e instanceof InputError && e.field === 'text');
  });

  it('a request\'s own structured findings over the bound are still refused, naming the field', async () => {
    const fx = await tinyKg();
    const deps: DiagnoseDeps = { graph: { read: async () => [] }, ...fx, reasoners: [new EvidenceReasoner()], followUpRanker: new SigmaRanker(), differencesPerDisease: 10, limits: { maxFindings: 2, llmBudget: { wallMs: 1000, maxCalls: 1 } } };
    await assert.rejects(diagnose(deps, { ...textInput('x'), text: null, findings: [f('fever'), f('rash'), f('cough')] }), (e: unknown) => e instanceof InputError && e.field === 'findings');
  });
});
