import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { loadConfig } from '../../src/config.js';
import { bodyLimitBytes } from '../../src/http/app.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { hashUnit } from '../../src/sources/split.js';
import { runBuild } from '../../kg-build/pipeline.js';
import { runLoad } from '../../bench/load.js';
import { rng } from '../support/memory-source.js';
import { testGraphStore } from '../support/neo4j.js';
import { NO_GATE, SMALL_BUILD_PARAMS } from '../support/ddxplus-build.js';
import { ENDPOINTS, FUZZ_MARKER, FuzzGen, type FuzzCase } from './fuzz-cases.js';

/**
 * The REAL server (`dxgraph serve`, its own process, default log level, API key on,
 * rate limit off so the fuzz reaches the routes) after a real build, hammered with
 * 5,000+ seeded hostile requests on loopback (DX_FUZZ_REQUESTS=10500 for the longer run the
 * hardening issue measured; npm test stays under its 10 minutes): no 5xx, the process stays up and answers
 * as before, its memory stays bounded, and no patient-like text reaches its log. Then a
 * short load run (the full one is `npm run bench:load`).
 */
const REQUESTS = Number(process.env.DX_FUZZ_REQUESTS ?? 5_250);
const CONCURRENCY = 16;
const API_KEY = 'fuzz-key-0123456789abcdef';
const MAX_TEXT = 20_000;

interface Sent {
  status: number | null;
  body: string;
  error: string | null;
}

function send(base: URL, c: FuzzCase, agent: Agent): Promise<Sent> {
  return new Promise((resolve) => {
    const headers = { ...c.headers, ...(c.body ? { 'content-length': String(c.body.length) } : {}) };
    const req = request({ host: base.hostname, port: base.port, method: c.method, path: c.path, headers, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (d: Buffer) => {
        if (size < 8192) chunks.push(d);
        size += d.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), error: null }));
      res.on('error', (e) => resolve({ status: res.statusCode ?? null, body: '', error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error('client timeout 30 s')));
    req.on('error', (e) => resolve({ status: null, body: '', error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(c.body ?? undefined);
  });
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function jsonPost(url: string, body: unknown): Promise<any> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

describe('fuzz and load against the real server (`dxgraph serve` process)', function () {
  this.timeout(900_000);
  let dataDir: string;
  let child: ChildProcess;
  let url: string;
  let stderr = '';
  let exitCode: number | null | undefined;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dx-fuzz-'));
    const config = loadConfig({ ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LLM: 'none' });
    const graph = await testGraphStore();
    const source = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
    try {
      // The served gate is off by default: its training would change no answer here (its stories: gate.test.ts).
      await runBuild(
        { source, dataDir, include: (r) => hashUnit(23, r.id) < 0.35, params: { ...SMALL_BUILD_PARAMS, ...NO_GATE } },
        { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null },
      );
    } finally {
      await source.close();
    }
    const env: NodeJS.ProcessEnv = { ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LLM: 'none', DXGRAPH_API_KEYS: API_KEY, DXGRAPH_RATE_LIMIT_MAX: '0', DXGRAPH_MAX_TEXT_CHARS: String(MAX_TEXT) };
    delete env.DXGRAPH_LOG_LEVEL; // the default level is what is promised
    child = spawn(process.execPath, ['--max-old-space-size=1024', 'bin/dxgraph.js', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr!.on('data', (c) => (stderr += String(c)));
    child.on('exit', (code) => (exitCode = code));
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c) => {
        out += String(c);
        const m = /serving on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr.slice(-600)}`)));
    });
  });

  after(async () => {
    if (child && exitCode === undefined) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${REQUESTS} hostile requests to every endpoint: no 5xx, the server stays up and unchanged, memory bounded, nothing in the log`, async () => {
    const base = new URL(url);
    assert.equal(base.hostname, '127.0.0.1', 'loopback only');
    // Access: keys configured, so no key is a 401; security headers on; no CORS header.
    const noKey = await fetch(`${url}/v1/kg/summary`, { headers: { origin: 'https://evil.example' } });
    assert.equal(noKey.status, 401);
    assert.match(noKey.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(noKey.headers.get('access-control-allow-origin'), null);

    const sessionIds: string[] = [];
    const questionIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const s = await jsonPost(`${url}/v1/sessions`, { text: `${FUZZ_MARKER} fever and cough for ${i + 2} days` });
      if (s.status === 201) {
        sessionIds.push(s.json.sessionId);
        questionIds.push(...s.json.questions.map((q: any) => q.id));
      }
    }
    const diseases = await (await fetch(`${url}/v1/kg/diseases`, { headers: { authorization: `Bearer ${API_KEY}` } })).json();
    const subcategoryIds = [...new Set<string>(diseases.diseases.map((d: any) => encodeURIComponent(d.subcategoryId)))];
    const probe = { text: 'fever, dry cough, sore throat and muscle pain since two days', age: 30, sex: 'M' };
    const before = await jsonPost(`${url}/v1/diagnose`, probe);
    assert.equal(before.status, 200);

    const gen = new FuzzGen(rng(20251121), { apiKey: API_KEY, maxTextChars: MAX_TEXT, bodyLimit: bodyLimitBytes(MAX_TEXT), sessionIds: () => sessionIds, questionIds: () => questionIds, subcategoryIds });
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const statuses = new Map<number | string, number>();
    const perEndpoint = new Map<string, number>();
    const failures: string[] = [];
    const rss: number[] = [rssMb(child.pid!)];
    let done = 0;
    const t0 = Date.now();
    const worker = async () => {
      while (done < REQUESTS) {
        const c = gen.next();
        done++;
        const r = await send(base, c, agent);
        const key = r.status ?? `error:${r.error}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        perEndpoint.set(c.endpoint, (perEndpoint.get(c.endpoint) ?? 0) + 1);
        const bad =
          (r.status !== null && r.status >= 500) ||
          (r.status === null && !c.mayReset) ||
          /\n\s+at\s|node_modules|root:x:0:0|"devDependencies"/.test(r.body) ||
          (r.status === 200 && c.kind.includes('/v1/') && !c.headers.authorization?.endsWith(API_KEY) && c.headers['x-api-key'] !== API_KEY);
        if (bad && failures.length < 20) failures.push(`${r.status ?? r.error} ${c.kind} ${c.path.slice(0, 80)} ${r.body.slice(0, 160)}`);
        if (done % 1000 === 0) rss.push(rssMb(child.pid!));
        assert.ok(Date.now() - t0 < 600_000, 'fuzz run over its time bound');
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    const seconds = (Date.now() - t0) / 1000;
    rss.push(rssMb(child.pid!));
    const summary = JSON.stringify(Object.fromEntries([...statuses].sort()));
    process.stderr.write(`    [fuzz] ${done} requests in ${seconds.toFixed(1)} s (${(done / seconds).toFixed(0)}/s); statuses ${summary}\n`);
    process.stderr.write(`    [fuzz] per endpoint ${JSON.stringify(Object.fromEntries(perEndpoint))}\n`);
    process.stderr.write(`    [fuzz] server RSS MB every 1000 requests: ${rss.map((x) => x.toFixed(0)).join(' ')}\n`);

    assert.deepEqual(failures, []);
    assert.ok(done >= REQUESTS);
    // Every endpoint gets its share (about 1/12; at least 1/35), and the hostile bodies (about a fifth) are named 400s.
    for (const ep of ENDPOINTS) assert.ok((perEndpoint.get(ep) ?? 0) >= REQUESTS / 35, `${ep}: ${perEndpoint.get(ep)}`);
    assert.ok((statuses.get(400) ?? 0) > REQUESTS * 0.14, 'hostile bodies are named 400s');
    assert.equal(exitCode, undefined, 'the server process is still up');
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    const after = await jsonPost(`${url}/v1/diagnose`, probe);
    assert.deepEqual(after.json.differential, before.json.differential, 'the same answer after the fuzz');
    // Bounded: no more than 250 MB over the start, and flat in the second half of the run.
    const half = Math.floor(rss.length / 2);
    assert.ok(Math.max(...rss) - rss[0]! < 250, `RSS grew from ${rss[0]} to ${Math.max(...rss)} MB`);
    assert.ok(Math.max(...rss.slice(half)) - Math.max(...rss.slice(0, half)) < 60, `RSS still growing: ${rss.join(' ')}`);
    // Patient data: the default-level log saw every request and none of the patient text.
    assert.ok((stderr.match(/"msg":"request"/g) ?? []).length >= done * 0.9, 'the request log was captured');
    assert.ok(!stderr.includes(FUZZ_MARKER), 'patient-like text reached the server log');
    assert.ok(!stderr.includes(API_KEY), 'the API key reached the server log');
  });

  // DX_LOAD_CONNECTIONS=50 DX_LOAD_SECONDS=60 gives the full bench:load run on this server.
  const connections = Number(process.env.DX_LOAD_CONNECTIONS ?? 10);
  const seconds = Number(process.env.DX_LOAD_SECONDS ?? 3);
  it(`load: ${connections} clients for ${seconds} s on /v1/diagnose, 0 errors (full run: npm run bench:load)`, async () => {
    const rss0 = rssMb(child.pid!);
    const r = await runLoad({ url, connections, durationSeconds: seconds, apiKey: API_KEY });
    process.stderr.write(`    [load] server RSS ${rss0.toFixed(0)} -> ${rssMb(child.pid!).toFixed(0)} MB\n`);
    process.stderr.write(`    [load] ${r.requests} requests, ${r.throughput.toFixed(1)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}\n`);
    assert.ok(r.requests >= 10, `${r.requests} requests`);
    assert.equal(r.errors, 0);
    assert.equal(r.non2xx, 0);
    assert.equal(r.timeouts, 0);
  });

  it('SIGTERM after all that: the in-flight request is answered, then exit 0', async () => {
    const exited = new Promise<number | null>((resolve) => (exitCode !== undefined ? resolve(exitCode) : child.once('exit', (c) => resolve(c))));
    const inFlight = jsonPost(`${url}/v1/diagnose`, { text: 'fever, dry cough, sore throat and muscle pain since two days' });
    await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    assert.equal((await inFlight).status, 200);
    assert.equal(await exited, 0);
    assert.match(stderr, /"msg":"stopped"/);
  });
});
