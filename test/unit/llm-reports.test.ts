import assert from 'node:assert/strict';
import type { DiagnoseInput, DiagnoseResult } from '../../src/query/contracts.js';
import { LlmReports } from '../../src/reports/llm-reports.js';
import { MemoryReportStore } from '../../src/reports/memory-report-store.js';
import { newReportId, REPORT_ID } from '../../src/reports/report-id.js';
import { ServiceUnavailableError } from '../../src/errors.js';
import { fakeResult, postJson, startFakeApp, type Harness } from './http-fakes.js';

/** A query service whose LLM answers only when the test says so, and whose evidence answers at once. */
function gatedQuery() {
  const calls: DiagnoseInput[] = [];
  let release: (r: (input: DiagnoseInput) => DiagnoseResult | Error) => void = () => {};
  let gate = new Promise<(input: DiagnoseInput) => DiagnoseResult | Error>((r) => (release = r));
  return {
    calls,
    answer: (f: (input: DiagnoseInput) => DiagnoseResult | Error) => release(f),
    reset: () => (gate = new Promise((r) => (release = r))),
    query: {
      diagnose: async (input: DiagnoseInput): Promise<DiagnoseResult> => {
        calls.push(input);
        if (input.options.reasoner !== 'llm') return fakeResult(input);
        const out = (await gate)(input);
        if (out instanceof Error) throw out;
        return out;
      },
    },
  };
}

const llmAnswer = (input: DiagnoseInput): DiagnoseResult => ({ ...fakeResult(input), reasoner: 'llm', model: 'tiny (local)', report: { narrative: 'Likely disease A.', treatments: [], medications: [] } });
const KEY_A = 'key-aaaaaaaaaaaaaaaaaaaaaaaa';
const KEY_B = 'key-bbbbbbbbbbbbbbbbbbbbbbbb';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), retryAfter: res.headers.get('retry-after') };
}

describe('LLM report apart from the differential (issue 48): /v1/diagnose answers at once, the href gives the LLM answer', () => {
  let h: Harness;
  let q: ReturnType<typeof gatedQuery>;
  let now = 1_000_000;
  let reports: LlmReports;
  beforeEach(async () => {
    q = gatedQuery();
    now = 1_000_000;
    reports = new LlmReports({ store: new MemoryReportStore({ ttlMs: 60_000, maxReports: 10, now: () => now }), query: q.query, maxRunning: 2 });
    h = await startFakeApp({ query: q.query, reports, apiKeys: [KEY_A, KEY_B] });
  });
  afterEach(async () => {
    q.answer(llmAnswer);
    await reports.close();
    await h.close();
  });

  it('a clinician asking for the LLM gets the evidence differential first, then the whole LLM answer at the href', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'Fever and cough.', options: { reasoner: 'llm' } }, auth(KEY_A));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.reasoner, 'evidence');
    assert.equal(q.calls[0]!.options.reasoner, 'evidence', 'the first answer never runs the LLM');
    assert.equal(q.calls[0]!.options.decomposition, 'rules', 'nor the LLM decomposer: it reads the text with the rule path');
    assert.equal(r.json.report.status, 'pending');
    assert.match(r.json.report.href, /^\/v1\/reports\/[A-Za-z0-9_-]{24}$/);
    const pending = await get(`${h.url}${r.json.report.href}`, auth(KEY_A));
    assert.equal(pending.status, 202);
    assert.equal(pending.json.report.status, 'pending');
    assert.equal(pending.retryAfter, '2');
    q.answer(llmAnswer);
    await reports.close();
    const done = await get(`${h.url}${r.json.report.href}`, auth(KEY_A));
    assert.equal(done.status, 200);
    assert.equal(done.json.reasoner, 'llm');
    assert.equal(done.json.model, 'tiny (local)');
    assert.equal(done.json.degraded, false);
    assert.equal(done.json.report.status, 'done');
    assert.equal(done.json.report.narrative, 'Likely disease A.');
    assert.equal(done.json.differential[0].diseaseId, 'dis:a');
    assert.equal(q.calls[1]!.options.decomposition, undefined, 'the report decomposes as configured (the LLM, once)');
  });

  it("another API key's report reads like a missing one; a malformed or unknown id is a 404", async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'Fever.' }, auth(KEY_A));
    assert.equal(r.json.report.status, 'pending', '"auto" with an LLM configured goes to the LLM too');
    assert.equal((await get(`${h.url}${r.json.report.href}`, auth(KEY_B))).status, 404);
    assert.equal((await get(`${h.url}/v1/reports/${newReportId()}`, auth(KEY_A))).status, 404);
    assert.equal((await get(`${h.url}/v1/reports/..%2Fsessions`, auth(KEY_A))).status, 404);
    assert.equal((await get(`${h.url}${r.json.report.href}`)).status, 401, 'no key, no report');
  });

  it('a report expires after its TTL, pending or done', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'Fever.', options: { reasoner: 'llm' } }, auth(KEY_A));
    q.answer(llmAnswer);
    await reports.close();
    assert.equal((await get(`${h.url}${r.json.report.href}`, auth(KEY_A))).status, 200);
    now += 60_001;
    assert.equal((await get(`${h.url}${r.json.report.href}`, auth(KEY_A))).status, 404);
  });

  it('an LLM that fails leaves the evidence differential at the href, degraded, status "failed"', async () => {
    const a = await postJson(`${h.url}/v1/diagnose`, { text: 'Fever.', options: { reasoner: 'llm' } }, auth(KEY_A));
    q.answer(() => new ServiceUnavailableError('llm', 'local model failed'));
    await reports.close();
    const failed = await get(`${h.url}${a.json.report.href}`, auth(KEY_A));
    assert.equal(failed.status, 200);
    assert.equal(failed.json.report.status, 'failed');
    assert.equal(failed.json.degraded, true);
    assert.equal(failed.json.reasoner, 'evidence');
    assert.ok(failed.json.differential.length > 0);
  });

  it('an explicit "evidence" request starts no report; past DXGRAPH_REPORTS_RUNNING the answer says no report will come', async () => {
    const e = await postJson(`${h.url}/v1/diagnose`, { text: 'Fever.', options: { reasoner: 'evidence' } }, auth(KEY_A));
    assert.equal(e.json.report, null);
    assert.equal(reports.size, 0);
    for (let i = 0; i < 2; i++) assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'Fever.', options: { reasoner: 'llm' } }, auth(KEY_A))).json.report.status, 'pending');
    const busy = await postJson(`${h.url}/v1/diagnose`, { text: 'Fever.', options: { reasoner: 'llm' } }, auth(KEY_A));
    assert.equal(busy.status, 200);
    assert.equal(busy.json.report.status, 'failed');
    assert.equal(busy.json.report.href, null);
    assert.match(busy.json.report.error, /busy/);
    assert.equal(busy.json.differential[0].diseaseId, 'dis:a');
  });
});

describe('report ids and the memory report store', () => {
  it('ids are 144 random bits, url-safe, never repeated', () => {
    const ids = new Set(Array.from({ length: 1000 }, newReportId));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.match(id, REPORT_ID);
  });

  it('refuses past its capacity (never evicts a live report) and makes room as reports expire', async () => {
    let now = 0;
    const s = new MemoryReportStore({ ttlMs: 100, maxReports: 2, now: () => now });
    assert.equal(await s.open('a', 'o'), true);
    assert.equal(await s.open('b', 'o'), true);
    assert.equal(await s.open('c', 'o'), false);
    assert.equal((await s.get('a', 'o'))?.status, 'pending');
    await s.settle('a', 'o', 'done', '{"x":1}');
    assert.deepEqual(await s.get('a', 'o'), { id: 'a', status: 'done', body: '{"x":1}', expiresAt: 100 });
    assert.equal(await s.get('a', 'other'), null);
    now = 100;
    assert.equal(await s.get('a', 'o'), null);
    assert.equal(await s.open('c', 'o'), true);
  });
});
