import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, type LimitsConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { loadApiKeys } from '../../src/http/access.js';
import { FairAdmission } from '../../src/http/admission.js';
import { LoopCostBudget } from '../../src/http/loop-cost.js';
import { cachedProbe } from '../../src/http/cached-probe.js';
import { SUMMARY_CAPS } from '../../src/query/compact-trace.js';
import { diagnoseJson, type JsonRender } from '../../src/query/diagnose-json.js';
import type { DiagnoseInput, DiagnoseResult } from '../../src/query/contracts.js';
import { fakeResult, postJson, startFakeApp, type Harness } from './http-fakes.js';

/**
 * Issue 18 bounds on the HTTP layer, with a deterministic query fake: option ranges, the
 * summary trace (default) against the full one and the response ceiling, fair admission with
 * 503 + Retry-After, error messages that never echo the client's value, low-entropy API keys,
 * and the cached readiness probe.
 */
function bigResult(input: DiagnoseInput, findings: number, perFinding: number, recordChars: number): DiagnoseResult {
  const base = fakeResult(input);
  return {
    ...base,
    trace: {
      ...base.trace,
      findings: Array.from({ length: findings }, (_, i) => ({ text: `finding ${i}`, polarity: 'present' as const, code: null, valueCode: null })),
      matches: Array.from({ length: findings * perFinding }, (_, k) => ({
        findingIndex: Math.floor(k / perFinding), featureId: `feat:${k}`, featureText: `feature ${k}`, similarity: (k % perFinding) / perFinding, polarity: 'present' as const,
      })),
      votes: Array.from({ length: 30 }, (_, i) => ({ subcategoryId: `sub:${i}`, name: `Sub ${i}`, votes: 30 - i })),
      differencesKg: Array.from({ length: 400 }, (_, i) => ({ subject: `D${i % 7}`, relation: 'HAS_MANIFESTATION', object: `f${i}`, subjectId: null, objectId: null, weight: 0.5 })),
      retrieved: Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, similarity: 0.5, diagnosis: 'Disease A', diseaseId: 'dis:a', text: 'x'.repeat(recordChars), summary: null })),
    },
  };
}

describe('HTTP bounds (issue 18)', function () {
  this.timeout(20000);
  let open: Harness | null = null;
  const start = async (opts: Parameters<typeof startFakeApp>[0] = {}): Promise<Harness> => (open = await startFakeApp(opts));
  afterEach(async () => {
    await open?.close();
    open = null;
  });

  it('rejects options past their bounds with a 400 naming the field and the rule', async () => {
    const h = await start();
    for (const [options, field] of [
      [{ topM: 50 }, 'options.topM'],
      [{ matchThreshold: -1 }, 'options.matchThreshold'],
      [{ topK: 101 }, 'options.topK'],
      [{ followUps: 50 }, 'options.followUps'],
      [{ candidateSubcategories: 20 }, 'options.candidateSubcategories'],
      [{ trace: 'everything' }, 'options.trace'],
    ] as const) {
      const r = await postJson(`${h.url}/v1/diagnose`, { text: 'fever', options });
      assert.equal(r.status, 400, JSON.stringify(options));
      assert.equal(r.json.error.field, field);
      assert.match(r.json.error.message, new RegExp(`^${field.replace('.', '\\.')}: `));
    }
    assert.equal(h.calls.length, 0, 'nothing out of bounds reached the pipeline');
  });

  it('answers with the summary trace by default and the full one on request; the summary says what it left out', async () => {
    const h = await start({ query: { diagnose: async (input) => bigResult(input, 40, 10, 2000) } });
    const summary = await postJson(`${h.url}/v1/diagnose`, { text: 'fever' });
    assert.equal(summary.status, 200);
    const t = summary.json.trace;
    assert.equal(t.matches.length, 40, 'the best match of every finding');
    assert.deepEqual(new Set(t.matches.map((m: any) => m.findingIndex)).size, 40);
    assert.ok(t.matches.every((m: any) => m.similarity === 0.9), 'each finding keeps its most similar match');
    assert.equal(t.votes.length, SUMMARY_CAPS.votes);
    assert.equal(t.differencesKg.length, SUMMARY_CAPS.differencesKg);
    assert.equal(t.retrieved.length, SUMMARY_CAPS.retrieved);
    assert.ok(t.retrieved.every((r: any) => r.text.length <= SUMMARY_CAPS.textChars + 1));
    assert.deepEqual(t.omitted, { matches: 360, votes: 20, differencesKg: 340, retrieved: 30, gateSentences: 0, clippedTexts: 10 });

    const full = await postJson(`${h.url}/v1/diagnose`, { text: 'fever', options: { trace: 'full' } });
    assert.equal(full.json.trace.matches.length, 400);
    assert.equal(full.json.trace.retrieved.length, 40);
    assert.equal(full.json.trace.omitted, undefined);
    assert.ok(summary.text.length * 4 < full.text.length, `summary ${summary.text.length} B vs full ${full.text.length} B`);
  });

  it('never answers above the response ceiling: a full trace over it comes back as the summary', async () => {
    const limits: LimitsConfig = { ...DEFAULT_LIMITS, maxResponseBytes: 100_000 };
    const h = await start({
      query: { diagnose: async (input) => bigResult(input, 200, 10, 20_000) },
      config: { http: { host: '127.0.0.1', port: 0, apiKeys: [], apiKeyFile: null, maxTextChars: 2000 }, privacy: { dropDemographics: false }, limits },
    });
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'fever', options: { trace: 'full' } });
    assert.equal(r.status, 200);
    assert.ok(Buffer.byteLength(r.text) <= limits.maxResponseBytes, `${Buffer.byteLength(r.text)} B`);
    assert.ok(r.json.trace.omitted.matches > 0, 'the answer says the trace was cut');
  });

  it('a query service that renders its own body (the worker pool) is asked for it with the trace and ceiling; the route sends it as is', async () => {
    const asked: unknown[] = [];
    const rendered = (input: DiagnoseInput, render: JsonRender) => diagnoseJson(bigResult(input, 40, 10, 2000), render);
    const h = await start({
      query: {
        diagnose: async () => assert.fail('the route must not render a result itself when the service renders'),
        diagnoseJson: async (input, render) => (asked.push(render), rendered(input, render)),
      },
    });
    const summary = await postJson(`${h.url}/v1/diagnose`, { text: 'fever' });
    const full = await postJson(`${h.url}/v1/diagnose`, { text: 'fever', options: { trace: 'full' } });
    assert.deepEqual(asked, [{ trace: 'summary', maxBytes: DEFAULT_LIMITS.maxResponseBytes }, { trace: 'full', maxBytes: DEFAULT_LIMITS.maxResponseBytes }]);
    assert.equal(summary.status, 200);
    assert.equal(summary.json.trace.matches.length, 40);
    assert.equal(full.json.trace.matches.length, 400);
  });

  it('admits at most maxActive diagnoses, serves waiting clients round-robin, and sheds load with 503 + Retry-After', async () => {
    const limits: LimitsConfig = { ...DEFAULT_LIMITS, admission: { maxActive: 1, maxActivePerClient: 1, maxQueued: 6, maxQueuedPerClient: 3 } };
    const KEY_H = 'hostile-key-0123456789abc';
    const KEY_V = 'victim-key-0123456789abcd';
    const order: string[] = [];
    // The first diagnose holds until released, so nothing depends on how fast this machine is:
    // the victim is sent once the hostile key's queue is full (its two shed requests came back).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const h = await start({
      apiKeys: [KEY_H, KEY_V],
      query: {
        diagnose: async (input) => {
          order.push(input.text ?? '');
          await (order.length === 1 ? held : new Promise((r) => setTimeout(r, 5)));
          return fakeResult(input);
        },
      },
      // Per-client limits apply with the rate limiter on.
      config: { http: { host: '127.0.0.1', port: 0, apiKeys: [], apiKeyFile: null, maxTextChars: 2000, rateLimit: { max: 1000, windowMs: 60_000 } }, privacy: { dropDemographics: false }, limits },
    });
    const hostile = Array.from({ length: 6 }, (_, i) => postJson(`${h.url}/v1/diagnose`, { text: `h${i}` }, { 'x-api-key': KEY_H }));
    let shedSoFar = 0;
    await new Promise<void>((resolve) => {
      for (const p of hostile) void p.then((r) => (r.status === 503 && ++shedSoFar === 2 ? resolve() : undefined));
    });
    const victim = postJson(`${h.url}/v1/diagnose`, { text: 'v0' }, { 'x-api-key': KEY_V });
    // The victim must be queued before the running request ends; a request reaches the server in well under a second.
    await new Promise((r) => setTimeout(r, 300));
    release();
    const results = await Promise.all([...hostile, victim]);
    const statuses = results.map((r) => r.status);
    // 1 running + 3 queued for the hostile key; its other 2 are shed.
    assert.equal(statuses.filter((s) => s === 503).length, 2, statuses.join(','));
    const shed = results.find((r) => r.status === 503)!;
    assert.equal(shed.json.error.code, 'OVERLOADED');
    assert.equal(results.at(-1)!.status, 200);
    // The victim ran second: right after the request running when it arrived, before the hostile queue.
    assert.equal(order.indexOf('v0'), 1, order.join(','));
  });

  it('FairAdmission: a client at its own cap waits while others start; a cancelled waiter never runs', async () => {
    const capped = new FairAdmission({ maxActive: 3, maxActivePerClient: 2, maxQueued: 8, maxQueuedPerClient: 8 });
    const started: string[] = [];
    const slots = ['h1', 'h2', 'h3', 'v1'].map((name) => {
      const s = capped.enter(name[0]!);
      assert.ok(s.ok);
      void s.admitted.then(() => started.push(name));
      return s;
    });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, ['h1', 'h2', 'v1'], 'h3 waits: its client already runs 2');
    slots[0]!.ok && slots[0]!.leave();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, ['h1', 'h2', 'v1', 'h3']);

    const a = new FairAdmission({ maxActive: 1, maxActivePerClient: 1, maxQueued: 2, maxQueuedPerClient: 2 });
    const first = a.enter('x');
    assert.ok(first.ok);
    const second = a.enter('x');
    assert.ok(second.ok);
    let ran = false;
    void second.admitted.then(() => (ran = true));
    second.leave();
    assert.deepEqual(a.stats, { active: 1, queued: 0 });
    first.leave();
    await new Promise((r) => setImmediate(r));
    assert.equal(ran, false);
    assert.deepEqual(a.stats, { active: 0, queued: 0 });
  });

  it('LoopCostBudget: charges each running request its share of loop time; a client in debt is refused until it refills', () => {
    let now = 0;
    let loop = 0;
    const budget = new LoopCostBudget({ msPerSecond: 100, burstMs: 500 }, { now: () => now, loopActiveMs: () => loop });
    assert.equal(budget.refusal('h'), null);
    const h1 = budget.meter();
    const v1 = budget.meter();
    loop += 400; // busy while both ran: 200 ms each
    budget.charge('v', v1());
    loop += 500; // h alone
    budget.charge('h', h1());
    assert.equal(Math.round(budget.balance('h')), 500 - 700);
    assert.equal(Math.round(budget.balance('v')), 300);
    assert.deepEqual(budget.refusal('h'), { retryAfterSeconds: 2 });
    assert.equal(budget.refusal('v'), null);
    now += 2000; // +200 ms of budget
    assert.equal(budget.refusal('h'), null, 'refilled');
    const w = budget.meter();
    now += 1000; // waiting on Neo4j / an LLM: no loop time, no charge
    budget.charge('h', w());
    assert.equal(Math.round(budget.balance('h')), 100);
  });

  it('FairAdmission.contended: another client running, waiting or seen in the last 2 s', () => {
    let t = 0;
    const a = new FairAdmission({ maxActive: 2, maxActivePerClient: 1, maxQueued: 4, maxQueuedPerClient: 4 }, () => t);
    assert.equal(a.contended('v'), false);
    const h = a.enter('h');
    assert.ok(h.ok);
    assert.equal(a.contended('v'), true);
    assert.equal(a.contended('h'), false, 'alone: its own requests do not count');
    h.leave();
    t += 1000;
    assert.equal(a.contended('v'), true, 'h was seen a second ago');
    t += 1500;
    assert.equal(a.contended('v'), false);
  });

  it('error messages name the field and the rule and never echo the value (404 paths, NUL, RTL)', async () => {
    const h = await start();
    const marker = 'PATIENTMARKER';
    for (const path of [`/v1/${marker}%00x`, `/v1/kg/${marker}%E2%80%AEtxt`, `/nope/${marker}`]) {
      const res = await fetch(`${h.url}${path}`);
      const text = await res.text();
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(text, new RegExp(marker), path);
      assert.doesNotMatch(text, /[\u0000\u202e]/u);
    }
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'fever', options: { reasoner: `${marker}\u202e\u0000` } });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.field, 'options.reasoner');
    assert.doesNotMatch(r.text, new RegExp(marker));
  });

  it('refuses low-entropy API keys at start-up without printing them', () => {
    const http = { host: '127.0.0.1', port: 0, apiKeyFile: null, maxTextChars: 1000 };
    for (const weak of ['a'.repeat(16), 'ab'.repeat(8), 'deadbeefdeadbeef']) {
      assert.throws(
        () => loadApiKeys({ ...http, apiKeys: ['good-key-0123456789abcdef', weak] }),
        (e: unknown) => e instanceof ConfigError && /API key #2 is too predictable/.test(e.message) && !e.message.includes(weak),
      );
    }
    assert.deepEqual(loadApiKeys({ ...http, apiKeys: ['k-0123456789abcdef-test'] }), ['k-0123456789abcdef-test']);
  });

  it('/readyz reuses its Neo4j check for the cache window and shares one probe in flight', async () => {
    let clock = 0;
    let probes = 0;
    const probe = cachedProbe(async () => {
      probes++;
      await new Promise((r) => setTimeout(r, 10));
      return probes;
    }, { ttlMs: 2000, now: () => clock });
    assert.deepEqual(await Promise.all([probe(), probe(), probe()]), [1, 1, 1]);
    clock = 1999;
    assert.equal(await probe(), 1);
    clock = 2000;
    assert.equal(await probe(), 2);

  });
});
