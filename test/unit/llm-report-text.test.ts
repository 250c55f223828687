import assert from 'node:assert/strict';
import { LOCAL_LLM_DEFAULTS, loadConfig } from '../../src/config.js';
import { completeSentences, shapeReport, statesDose } from '../../src/reasoners/llm-report-text.js';

describe('what the clinician is shown of an LLM report (issue 48)', () => {
  it('a narrative the grammar cut mid-sentence keeps its whole sentences only', () => {
    assert.equal(completeSentences('Community-acquired pneumonia is likely. Consolidation on the right would fit the crackles and'), 'Community-acquired pneumonia is likely.');
    assert.equal(completeSentences('Fits bronchitis (no fever). Consider "viral URTI"! Or is it'), 'Fits bronchitis (no fever). Consider "viral URTI"!');
    assert.equal(completeSentences('no sentence end at all because the cap came first'), '');
    assert.equal(completeSentences('Temperature 38.5 fits a viral illness. Consider a 0.5 probability of'), 'Temperature 38.5 fits a viral illness.', 'a decimal point ends no sentence');
  });

  it("an endpoint's answer is whole: its last sentence is kept without a full stop; a capped one's is not", () => {
    const report = { narrative: 'Streptococcal pharyngitis is likely. Centor score of 4 supports it', treatments: [], medications: [] };
    assert.equal(shapeReport(report, { clinicalAdvice: true, capped: false }).narrative, report.narrative);
    assert.equal(shapeReport(report, { clinicalAdvice: true, capped: true }).narrative, 'Streptococcal pharyngitis is likely.');
    assert.equal(shapeReport({ ...report, narrative: 'scripted narrative' }, { clinicalAdvice: true, capped: false }).narrative, 'scripted narrative');
  });

  it('a small local model gives no treatment advice: treatments and medications left out, dosing sentences dropped', () => {
    const report = { narrative: 'Pneumonia is likely. Give amoxicillin 500 mg three times a day. Review in 48 hours.', treatments: ['antibiotics'], medications: ['amoxicillin 500 mg tid'] };
    const local = shapeReport(report, { clinicalAdvice: false, capped: true });
    assert.deepEqual(local, { narrative: 'Pneumonia is likely. Review in 48 hours.', treatments: [], medications: [] });
    const endpoint = shapeReport(report, { clinicalAdvice: true, capped: false });
    assert.deepEqual(endpoint.medications, ['amoxicillin 500 mg tid']);
    assert.equal(endpoint.narrative, report.narrative);
  });

  it('doses are recognised in their usual written forms, and plain numbers are not doses', () => {
    for (const s of ['Salbutamol 2 puffs as needed.', 'Paracetamol 1g qds.', 'Prednisolone 40mg daily.', 'Ibuprofen q6h.', 'Fluids 20 mL/kg.']) assert.ok(statesDose(s), s);
    for (const s of ['Symptoms for 3 days.', 'Temperature 39 C.', 'Heart rate 110.']) assert.ok(!statesDose(s), s);
  });

  it('a local model gets a timeout and budget it can finish in; an endpoint keeps 30 s / 45 s; set values win', () => {
    const local = loadConfig({ DXGRAPH_LLM: 'local' });
    assert.equal(local.llm.timeoutMs, LOCAL_LLM_DEFAULTS.timeoutMs);
    assert.equal(local.limits!.llmBudget.wallMs, LOCAL_LLM_DEFAULTS.budgetMs);
    const endpoint = loadConfig({ DXGRAPH_LLM: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    assert.equal(endpoint.llm.timeoutMs, 30_000);
    assert.equal(endpoint.limits!.llmBudget.wallMs, 45_000);
    assert.equal(loadConfig({ DXGRAPH_LLM: 'local', DXGRAPH_LLM_TIMEOUT_MS: '5000' }).llm.timeoutMs, 5000);
    assert.deepEqual(loadConfig({ DXGRAPH_REPORT_TTL_MS: '2000' }).reports, { ttlMs: 2000, maxReports: 1000, maxRunning: 4 });
  });
});
