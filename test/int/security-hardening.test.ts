import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { hashUnit, splitFilter } from '../../src/sources/split.js';
import { buildDdxplusKg, readDdxplusRecords } from '../support/ddxplus-build.js';
import { serveProcess, type ServeProcess } from '../support/serve.js';
import { fetchReport } from '../support/llm-report.js';

/**
 * Issue 18 against the REAL `dxgraph serve` process (bin/dxgraph.js, port 0) on a real build
 * of a DDXPlus subset (Neo4j + faiss-node): the amplification body, another client's latency
 * while a hostile client runs, the LLM budget on FIND retrieval with a hung endpoint, client
 * disconnect aborting LLM calls, and no patient text in the server's log when the LLM echoes.
 */
const KEY_H = 'hostile-key-0123456789abc';
const KEY_V = 'victim-key-0123456789abcd';
const MARKER = 'QZXW-PATIENT-MARKER-4417';
const AMPLIFICATION = { text: 'fever, '.repeat(2800), options: { topM: 50, matchThreshold: -1 } };

const serve = serveProcess;
type Serve = ServeProcess;

async function post(url: string, body: unknown, key: string | null, signal?: AbortSignal) {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/diagnose`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, bytes: Buffer.byteLength(text), ms: performance.now() - t0, json: JSON.parse(text) };
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.99 * xs.length) - 1]!;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.5 * xs.length) - 1]!;

/** An OpenAI-compatible endpoint that never answers chat requests; counts open and closed ones. */
async function hungLlm(): Promise<{ baseUrl: string; server: Server; open: () => number; received: () => number }> {
  let open = 0;
  let received = 0;
  const server = createServer((req, res) => {
    received++;
    open++;
    req.resume();
    res.on('close', () => open--);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, open: () => open, received: () => received };
}

/** An endpoint that quotes the request: HTTP 500 with the body in its message, or prose repeating it. */
async function echoLlm(): Promise<{ baseUrl: string; server: Server; received: () => number }> {
  let received = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received++;
      const echoed = Buffer.concat(chunks).toString('utf8');
      // The first four fail with HTTP 500 (the reasoner's call and its client retry), then prose and errors alternate.
      if (received <= 4 || received % 2 === 1) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `upstream failed for ${echoed}` } }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: `You wrote: ${echoed}` }, finish_reason: 'stop' }] }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, received: () => received };
}

describe('hardening against a real dxgraph serve process (issue 18)', function () {
  this.timeout(600_000);
  let dataDir: string;
  let baseEnv: Record<string, string>;
  let patients: NormalizedRecord[];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dx-security-'));
    baseEnv = { NEO4J_URI: process.env.NEO4J_URI!, NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '', DXGRAPH_DATA_DIR: dataDir, DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LLM: 'none' };
    const config = loadConfig({ ...process.env, ...baseEnv });
    const train = splitFilter({ seed: 7, testFraction: 0.4, part: 'train' });
    // The served gate is off by default: its training would change no answer here (its stories: gate.test.ts).
    await buildDdxplusKg(config, (r) => train(r) && hashUnit(3, r.id) < 0.5, { gate: false });
    patients = await readDdxplusRecords(splitFilter({ seed: 7, testFraction: 0.4, part: 'test' }), 30);
  });

  after(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe('bounded work and output; another client unaffected by a hostile one', () => {
    let s: Serve;
    before(async () => {
      // Default rate limit (600 / min per key): the hostile client stays at it, as in the issue.
      s = await serve({ ...baseEnv, DXGRAPH_API_KEYS: `${KEY_H},${KEY_V}` });
    });
    after(async () => {
      assert.equal(await s?.stop(), 0);
    });

    it('the amplification body is refused at once with a small 400 naming the field and the rule', async () => {
      const a = await post(s.url, AMPLIFICATION, KEY_H);
      assert.equal(a.status, 400);
      assert.equal(a.json.error.field, 'options.topM');
      // The same text within the option ranges: refused before decomposition for its clause count.
      const b = await post(s.url, { ...AMPLIFICATION, options: { topM: 10, matchThreshold: 0, trace: 'full' } }, KEY_H);
      assert.equal(b.status, 400);
      assert.equal(b.json.error.field, 'text');
      assert.match(b.json.error.message, /clauses/);
      assert.ok(a.bytes < 300 && b.bytes < 300, `${a.bytes} / ${b.bytes} bytes (was 25.8 MB)`);
      process.stderr.write(`    [amplification] ${a.status} ${a.bytes} B in ${a.ms.toFixed(0)} ms; in-range options ${b.status} ${b.bytes} B in ${b.ms.toFixed(0)} ms\n`);
    });

    it('the largest request the bounds allow stays under the response ceiling (summary by default, full on request)', async () => {
      const text = patients.slice(0, 4).map((p) => p.text).join('\n');
      const options = { topK: 100, topM: 10, matchThreshold: 0, followUps: 20, candidateSubcategories: 10 };
      const summary = await post(s.url, { text, options }, KEY_V);
      const full = await post(s.url, { text, options: { ...options, trace: 'full' } }, KEY_V);
      assert.equal(summary.status, 200, summary.text.slice(0, 300));
      assert.equal(full.status, 200, full.text.slice(0, 300));
      assert.ok(summary.json.trace.omitted, 'the summary says what it left out');
      assert.ok(summary.bytes < 256 * 1024, `summary ${summary.bytes} B`);
      assert.ok(full.bytes <= 2 * 1024 * 1024, `full ${full.bytes} B`);
      assert.ok(full.json.trace.matches.length > summary.json.trace.matches.length);
      process.stderr.write(`    [ceiling] ${summary.json.trace.findings.length} findings, topK 100, topM 10: summary ${summary.bytes} B (${summary.ms.toFixed(0)} ms), full ${full.bytes} B (${full.ms.toFixed(0)} ms)\n`);
    });

    it("another client's p99 stays within 2x its unloaded value while a hostile client sends the amplification body at the rate limit", async () => {
      const victim = async (n: number) => {
        const ms: number[] = [];
        for (let i = 0; i < n; i++) {
          const r = await post(s.url, { text: patients[i % patients.length]!.text }, KEY_V);
          assert.equal(r.status, 200, r.text.slice(0, 200));
          ms.push(r.ms);
        }
        return ms;
      };
      const healthz = async (n: number) => {
        const ms: number[] = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
          ms.push(performance.now() - t0);
          await new Promise((r) => setTimeout(r, 10));
        }
        return ms;
      };
      await victim(10); // warm-up
      const measure = async (hostile: boolean, into: { v: number[]; h: number[]; statuses: Record<number, number> }) => {
        let stop = !hostile;
        // Two loops of one request per 200 ms: the key's default rate limit (600 / min = 10 / s), as in the issue.
        const loops = Array.from({ length: 2 }, async () => {
          while (!stop) {
            const t0 = Date.now();
            const r = await post(s.url, { ...AMPLIFICATION, options: { topM: 10, matchThreshold: 0 } }, KEY_H);
            into.statuses[r.status] = (into.statuses[r.status] ?? 0) + 1;
            await new Promise((res) => setTimeout(res, Math.max(0, 200 - (Date.now() - t0))));
          }
        });
        const [v, h] = await Promise.all([victim(25), healthz(50)]);
        stop = true;
        await Promise.all(loops);
        into.v.push(...v);
        into.h.push(...h);
      };
      // Unloaded and loaded in short blocks, in the order Q L L Q twice: the box is shared (the other
      // test worker, the type check), so both conditions sample the same background, and a drift in
      // it falls on both alike. 100 victim requests and 200 /healthz samples in each condition; a p99
      // of 200 /healthz samples is the 3rd largest, one scheduler hiccup is not the percentile.
      // A p99 of 100 requests is still the 2nd largest: a burst of the other worker in a loaded block
      // has failed a CI run (187 vs 82 ms, p50 unchanged). So a failed round is measured once more:
      // the defect (the body processed: every hostile request holding the event loop) fails both
      // rounds; a burst of the background does not repeat in the same place. Two rounds, not more:
      // the victim sends 200 requests a round against its key's 600 a minute.
      const rounds: string[] = [];
      let failure: string | null = null;
      for (let round = 1; round <= 2; round++) {
        const quiet = { v: [] as number[], h: [] as number[], statuses: {} as Record<number, number> };
        const loud = { v: [] as number[], h: [] as number[], statuses: {} as Record<number, number> };
        for (const hostile of [false, true, true, false, false, true, true, false]) await measure(hostile, hostile ? loud : quiet);
        const quietP99 = p99(quiet.v);
        const quietHz = p99(quiet.h);
        rounds.push(
          `round ${round}: victim p50/p99 unloaded ${p50(quiet.v).toFixed(1)}/${quietP99.toFixed(1)} ms, ` +
            `with the hostile client ${p50(loud.v).toFixed(1)}/${p99(loud.v).toFixed(1)} ms; /healthz p99 ${quietHz.toFixed(1)} → ${p99(loud.h).toFixed(1)} ms; hostile statuses ${JSON.stringify(loud.statuses)}`,
        );
        // Every round: the hostile client ran and none of its bodies was processed.
        assert.ok(Object.keys(loud.statuses).length > 0, 'the hostile client ran');
        assert.ok(!loud.statuses[200], 'no amplification body was processed');
        failure =
          p99(loud.v) > 2 * quietP99
            ? `victim p99 ${p99(loud.v).toFixed(1)} ms vs unloaded ${quietP99.toFixed(1)} ms`
            : p99(loud.h) > Math.max(2 * quietHz, 50)
              ? `/healthz p99 ${p99(loud.h).toFixed(1)} ms vs unloaded ${quietHz.toFixed(1)} ms`
              : null;
        if (failure === null) break;
      }
      process.stderr.write(`    [hostile] ${rounds.join('\n              ')}\n`);
      assert.equal(failure, null, `in both rounds: ${rounds.join('; ')}`);
    });
  });

  describe('LLM budget and disconnect (hung endpoint)', () => {
    let s: Serve;
    let llm: Awaited<ReturnType<typeof hungLlm>>;
    before(async () => {
      llm = await hungLlm();
      s = await serve({ ...baseEnv, DXGRAPH_LLM: 'openai', OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'test', DXGRAPH_LLM_TIMEOUT_MS: '2000', DXGRAPH_LLM_BUDGET_MS: '3000', DXGRAPH_RATE_LIMIT_MAX: '0' });
    });
    after(async () => {
      await s?.stop();
      llm?.server.closeAllConnections();
      await new Promise<void>((r) => llm?.server.close(() => r()));
    });

    it('retrieval "find" with topK 100 and a hung LLM answers (degraded) within the request budget', async () => {
      const t0 = Date.now();
      const r = await post(s.url, { text: patients[0]!.text, options: { retrieval: 'find', topK: 100 } }, null);
      const ms = Date.now() - t0;
      assert.equal(r.status, 200, r.text.slice(0, 300));
      assert.equal(r.json.degraded, true);
      assert.ok(r.json.differential.length > 0);
      assert.ok(llm.received() > 0, 'the LLM was asked');
      process.stderr.write(`    [llm budget] find, topK 100, hung LLM (timeout 2 s, budget 3 s): ${ms} ms, ${llm.received()} LLM requests\n`);
      assert.ok(ms < 3000 + 1500, `${ms} ms (budget 3000 ms; was topK × timeout / concurrency)`);
      // The answer's report runs on against the hung model after the response: it settles as failed within its own
      // budget and closes its calls (the next story counts open calls, so none of this one's may linger into it).
      // Generous bounds (a slow CI box queues the report behind other work): they cost time only when the story fails.
      const { json: settled } = (await fetchReport(s.url, r.json, { since: Date.now(), timeoutMs: 3000 + 7000 })) as { json: { degraded: boolean; report: { status: string } } };
      assert.deepEqual([settled.degraded, settled.report.status], [true, 'failed']);
      const t1 = Date.now();
      while (llm.open() > 0 && Date.now() - t1 < 3000) await new Promise((res) => setTimeout(res, 20));
      assert.equal(llm.open(), 0, "the report's LLM calls were closed once it settled");
    });

    it('a client that goes away aborts its outstanding LLM calls', async () => {
      assert.equal(llm.open(), 0, 'no LLM call from an earlier story is open');
      const abort = new AbortController();
      const pending = post(s.url, { text: patients[1]!.text, options: { retrieval: 'find', topK: 20 } }, null, abort.signal).catch((e: unknown) => e);
      const t0 = Date.now();
      while (llm.open() === 0 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
      assert.ok(llm.open() > 0, 'LLM calls in flight');
      abort.abort();
      await pending;
      const t1 = Date.now();
      while (llm.open() > 0 && Date.now() - t1 < 2000) await new Promise((r) => setTimeout(r, 20));
      assert.equal(llm.open(), 0, 'every LLM call was closed soon after the client left');
      process.stderr.write(`    [disconnect] LLM calls closed ${Date.now() - t1} ms after the client left\n`);
    });
  });

  describe('no patient text in the log with an LLM that echoes the request', () => {
    it('diagnose through filter and reasoner, the endpoint quoting the prompt: the marker is nowhere in the server log', async () => {
      const llm = await echoLlm();
      const s = await serve({ ...baseEnv, DXGRAPH_LLM: 'openai', OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'test', DXGRAPH_LLM_TIMEOUT_MS: '3000', DXGRAPH_LLM_MAX_RETRIES: '0', DXGRAPH_RATE_LIMIT_MAX: '0' });
      try {
        for (const options of [{ reasoner: 'llm' }, { reasoner: 'llm', retrieval: 'find', topK: 5 }, { reasoner: 'auto', retrieval: 'find', topK: 3 }]) {
          const r = await post(s.url, { text: `${patients[2]!.text}\nNote: ${MARKER}`, options }, null);
          assert.equal(r.status, 200, r.text.slice(0, 300));
          // Issue 48: the evidence differential at once, the LLM's (failed, degraded) answer at the report's href.
          const { json: report } = (await fetchReport(s.url, r.json, { since: Date.now(), timeoutMs: 30_000 })) as { json: { degraded: boolean; report: { status: string } } };
          assert.deepEqual([report.degraded, report.report.status], [true, 'failed']);
        }
        assert.ok(llm.received() >= 3, 'the echoing LLM was called');
      } finally {
        assert.equal(await s.stop(), 0);
        await new Promise<void>((r) => llm.server.close(() => r()));
      }
      const log = s.stderr();
      assert.match(log, /reasoner degraded to fallback/);
      assert.match(log, /HTTP 500/, 'the status is logged');
      assert.doesNotMatch(log, new RegExp(MARKER), 'patient marker in the server log');
      assert.doesNotMatch(log, /upstream failed for|You wrote/, 'endpoint text in the server log');
    });
  });
});
