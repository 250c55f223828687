import assert from 'node:assert/strict';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { createLogger } from '../../src/logger.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import { COMPACT_PROMPT_LIMITS, loadDiagnosePrompt, renderDiagnosePrompt } from '../../src/reasoners/llm-prompt.js';
import { LlmReasoner } from '../../src/reasoners/llm-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';
import { WithFallback } from '../../src/reasoners/with-fallback.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';

const snapshot = buildSnapshot({
  categories: [{ id: 'cat:resp', name: 'Respiratory' }],
  subcategories: [{ id: 'sub:inf', name: 'Infections', categoryId: 'cat:resp' }],
  diseases: [
    { id: 'dis:pneu', name: 'Pneumonia', subcategoryId: 'sub:inf', icd10: 'J18', recordCount: 30, aliases: [] },
    { id: 'dis:bron', name: 'Bronchitis', subcategoryId: 'sub:inf', icd10: 'J20', recordCount: 20, aliases: [] },
  ],
  features: [
    { id: 'feat:fever', text: 'fever', kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: false },
    { id: 'feat:cough', text: 'cough', kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: false },
  ],
  manifestations: [
    { diseaseId: 'dis:pneu', featureId: 'feat:fever', prevalence: 0.9, count: 27, source: 'ehr' },
    { diseaseId: 'dis:pneu', featureId: 'feat:cough', prevalence: 0.8, count: 24, source: 'ehr' },
    { diseaseId: 'dis:bron', featureId: 'feat:cough', prevalence: 0.95, count: 19, source: 'ehr' },
  ],
});

const ctx: ReasonerContext = {
  input: { text: 'High fever and productive cough for three days.', findings: [], age: 63, sex: 'M', options: DEFAULT_OPTIONS },
  findings: [{ text: 'High fever', polarity: 'present', code: null, valueCode: null }],
  matches: [{ findingIndex: 0, featureId: 'feat:fever', featureText: 'fever', similarity: 0.9, polarity: 'present' }],
  votes: [{ subcategoryId: 'sub:inf', name: 'Infections', votes: 1 }],
  candidates: [{ subcategoryId: 'sub:inf', name: 'Infections', votes: 1 }],
  differencesKg: [{ subject: 'Pneumonia', relation: 'HAS_MANIFESTATION', object: 'fever', subjectId: 'dis:pneu', objectId: 'feat:fever', weight: 0.9 }],
  retrieved: [{ id: 'r1', similarity: 0.88, diagnosis: 'Pneumonia', diseaseId: 'dis:pneu', text: 'RECORD-TEXT-r1 fever, crackles', summary: null }],
  followUps: [{ id: 'q1', featureId: 'feat:cough', text: 'Do you have a cough?', score: 1, ranker: 'sigma' }],
  snapshot,
  signal: null,
};

const good = {
  diagnoses: [
    { disease: 'Bronchitis', explanation: 'cough dominates', confidence: 0.3 },
    { disease: 'Pneumonia', explanation: 'fever with crackles', confidence: 0.6 },
  ],
  followUpQuestions: ['Do you have a cough?', 'Is the sputum rusty?'],
  treatments: ['rest'],
  medications: ['amoxicillin per local guidance'],
  narrative: 'Likely a lower respiratory infection.',
};

describe('LLM reasoner against a local OpenAI-compatible server', () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(() => fake.close());

  async function reasoners(timeoutMs: number) {
    const chat = createChatModel({ llm: { enabled: true, model: 'fake-model', apiKey: 'test', baseUrl: fake.baseUrl, timeoutMs } }, { maxRetries: 0 });
    const llm = new LlmReasoner({ chat, prompt: await loadDiagnosePrompt(), timeoutMs });
    const evidence = new EvidenceReasoner();
    return { llm, evidence, wrapped: new WithFallback(llm, evidence, { timeoutMs, logger: createLogger({ level: 'silent' }) }) };
  }

  it('a good reply becomes the differential, report and follow-ups; the prompt carries q, d_r and K', async () => {
    fake.push({ json: good });
    const { wrapped } = await reasoners(5000);
    const out = await wrapped.reason(ctx);
    assert.equal(out.degraded, false);
    assert.deepEqual(out.differential.map((d) => d.diseaseId), ['dis:bron', 'dis:pneu']);
    assert.equal(out.differential[1]!.subcategory, 'Infections');
    assert.equal(out.differential[1]!.category, 'Respiratory');
    assert.ok(Math.abs(out.differential.reduce((a, d) => a + d.score, 0) - 1) < 1e-9);
    assert.ok(Math.abs(out.differential[1]!.score - 0.6 / 0.9) < 1e-9);
    assert.deepEqual(out.report, { narrative: good.narrative, treatments: good.treatments, medications: good.medications });
    assert.equal(out.followUps![0]!.featureId, 'feat:cough'); // kept the ranker's link
    assert.equal(out.followUps![1]!.ranker, 'llm');
    const sent = JSON.stringify(fake.chatRequests()[0]!.body.messages);
    for (const needle of ['High fever and productive cough', 'RECORD-TEXT-r1', '(Pneumonia, HAS_MANIFESTATION, fever, 0.90)', 'age 63', '- Bronchitis']) {
      assert.ok(sent.includes(needle), `prompt lacks ${needle}`);
    }
    assert.equal(fake.chatRequests()[0]!.body.messages[0].role, 'system');
    assert.ok(!sent.includes('{{'), 'unfilled placeholder');
  });

  it('a malformed reply (a disease outside the KG) is repaired by one more call', async () => {
    fake.push({ json: { ...good, diagnoses: [{ disease: 'Influenza', explanation: 'x' }] } }, { content: '```json\n' + JSON.stringify(good) + '\n```' });
    const { wrapped } = await reasoners(5000);
    const out = await wrapped.reason(ctx);
    assert.equal(out.degraded, false);
    assert.equal(fake.chatRequests().length, 2);
    assert.equal(out.differential[0]!.disease, 'Bronchitis');
    const repair = JSON.stringify(fake.chatRequests()[1]!.body.messages.at(-1));
    assert.match(repair, /diagnoses/);
  });

  it('malformed twice → the evidence reasoner answers, degraded', async () => {
    fake.push({ content: 'I think it is pneumonia.' }, { json: { diagnoses: [] } });
    const { wrapped, evidence } = await reasoners(5000);
    const out = await wrapped.reason(ctx);
    assert.equal(out.degraded, true);
    assert.equal(fake.chatRequests().length, 2);
    assert.deepEqual(out.differential, (await evidence.reason(ctx)).differential);
    assert.equal(out.report, null);
  });

  it('the endpoint failing (HTTP 500) → degraded, and the bare LLM reasoner throws a typed error', async () => {
    fake.push({ status: 500 }, { status: 500 });
    const { wrapped, llm } = await reasoners(5000);
    assert.equal((await wrapped.reason(ctx)).degraded, true);
    await assert.rejects(llm.reason(ctx), (e: Error) => e.name === 'ServiceUnavailableError');
  });

  it('a timeout → degraded within the configured timeout', async () => {
    fake.push({ delayMs: 10_000, json: good });
    const { wrapped } = await reasoners(400);
    const t0 = Date.now();
    const out = await wrapped.reason(ctx);
    const elapsed = Date.now() - t0;
    assert.equal(out.degraded, true);
    assert.ok(elapsed >= 350 && elapsed < 1200, `took ${elapsed} ms`);
  });
});

describe('diagnose prompt limits', () => {
  it('the compact prompt (local model) keeps 2 records and 36 triples taken in turn from every candidate disease, one triple per line', async () => {
    const triple = (subject: string, i: number) => ({ subject, relation: 'HAS_MANIFESTATION', object: `${subject}-feature-${i}`, subjectId: null, objectId: null, weight: null });
    const many = { ...ctx, differencesKg: ['Alpha', 'Beta', 'Gamma'].flatMap((s) => Array.from({ length: 30 }, (_, i) => triple(s, i))), retrieved: [1, 2, 3, 4].map((i) => ({ ...ctx.retrieved[0]!, id: `r${i}`, text: `RECORD-${i} ${'x'.repeat(600)}` })) };
    const { user } = renderDiagnosePrompt(await loadDiagnosePrompt(), many, COMPACT_PROMPT_LIMITS);
    // One triple per line, each naming its disease: SmolLM2-135M's first diagnosis fell outside the
    // candidates twice as often when a grouped line named each candidate once (docs/llm.md, 30 Nov).
    const triples = user.match(/^\((Alpha|Beta|Gamma), HAS_MANIFESTATION, .*\)$/gm) ?? [];
    assert.equal(triples.length, 36);
    for (const s of ['Alpha', 'Beta', 'Gamma']) assert.equal(triples.filter((t) => t.startsWith(`(${s},`)).length, 12, `${s}: 12 of the 36`);
    assert.doesNotMatch(user, /^Alpha HAS_MANIFESTATION: /m);
    assert.deepEqual(user.match(/RECORD-\d/g), ['RECORD-1', 'RECORD-2']);
    // Grouped lines stay available (one line per disease and relation, the same triples in it).
    const grouped = renderDiagnosePrompt(await loadDiagnosePrompt(), many, { ...COMPACT_PROMPT_LIMITS, grouped: true }).user;
    const lines = grouped.match(/^(Alpha|Beta|Gamma) HAS_MANIFESTATION: .*$/gm) ?? [];
    assert.deepEqual(lines.map((l) => l.split(' ')[0]), ['Alpha', 'Beta', 'Gamma']);
    for (const [i, s] of ['Alpha', 'Beta', 'Gamma'].entries()) assert.equal(lines[i], `${s} HAS_MANIFESTATION: ${Array.from({ length: 12 }, (_, k) => `${s}-feature-${k}`).join('; ')}`);
    const full = renderDiagnosePrompt(await loadDiagnosePrompt(), many).user;
    assert.equal((full.match(/HAS_MANIFESTATION/g) ?? []).length, 90, 'the default limits keep every triple under 150');
    assert.match(full, /^\(Alpha, HAS_MANIFESTATION, Alpha-feature-0\)$/m, 'one triple per line by default');
    // A record's clinical summary is what the LLM reads where the build has one (the questionnaire text is not sent).
    const summarised = { ...ctx, retrieved: [{ ...ctx.retrieved[0]!, text: 'Do you have a fever? yes', summary: 'Female, 10: Fever; Productive cough' }] };
    const withSummary = renderDiagnosePrompt(await loadDiagnosePrompt(), summarised).user;
    assert.match(withSummary, /^Female, 10: Fever; Productive cough$/m);
    assert.doesNotMatch(withSummary, /Do you have a fever/);
    const weighted = { ...ctx, differencesKg: [{ ...triple('Alpha', 0), weight: 0.5 }, { ...triple('Alpha', 1), relation: 'HAS_RISK_FACTOR', weight: 0.25 }, { ...triple('Alpha', 2), weight: null }] };
    assert.match(renderDiagnosePrompt(await loadDiagnosePrompt(), weighted, { ...COMPACT_PROMPT_LIMITS, grouped: true }).user, /^Alpha HAS_MANIFESTATION: Alpha-feature-0 0\.50; Alpha-feature-2\nAlpha HAS_RISK_FACTOR: Alpha-feature-1 0\.25$/m);
    assert.match(renderDiagnosePrompt(await loadDiagnosePrompt(), weighted, COMPACT_PROMPT_LIMITS).user, /^\(Alpha, HAS_MANIFESTATION, Alpha-feature-0, 0\.50\)\n\(Alpha, HAS_RISK_FACTOR, Alpha-feature-1, 0\.25\)\n\(Alpha, HAS_MANIFESTATION, Alpha-feature-2\)$/m);
  });
});
