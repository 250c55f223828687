import { isClinicalLabel } from '../../src/presentation/voice-checks.js';
import assert from 'node:assert/strict';
import { DDXPLUS_SAMPLE, NO_GATE, readDdxplusRecords, SMALL_BUILD_PARAMS } from '../support/ddxplus-build.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type DxServer } from '../../src/server.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { hashUnit, splitFilter } from '../../src/sources/split.js';
import { runBuild, type BuildParams } from '../../kg-build/pipeline.js';
import { startTcpProxy, type TcpProxy } from './http-tcp-proxy.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { fetchReport } from '../support/llm-report.js';
import { spawn } from 'node:child_process';

/**
 * The REAL server (startServer, as `dxgraph serve` runs it) on port 0, after a real build
 * of a DDXPlus subset into the real Neo4j and real FAISS indexes. Neo4j is reached through
 * a loopback TCP proxy so one test can take it away and give it back.
 */
const DDXPLUS = DDXPLUS_SAMPLE;
const SPLIT = { seed: 5, testFraction: 0.4 };
const HELD_OUT = 25;

async function post(url: string, body: unknown): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), text };
}

describe('HTTP server, real build: Neo4j + FAISS + HTTP on port 0', function () {
  this.timeout(600_000);
  let dataDir: string;
  let proxy: TcpProxy;
  let server: DxServer;
  let config: Config;
  let heldOut: NormalizedRecord[];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dx-http-int-'));
    const direct = loadConfig({ ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' });
    // A small subset: about half of the train part of a 60/40 patient-level split.
    const train = splitFilter({ ...SPLIT, part: 'train' });
    const graph = new GraphStore(direct.neo4j);
    await graph.connect();
    const source = await openSource(parseSourceSpec(`ddxplus:${DDXPLUS}`), { strict: false });
    try {
      // The served gate is off by default: its training would change no answer here (its stories: gate.test.ts).
      await runBuild(
        { source, dataDir, params: { ...SMALL_BUILD_PARAMS, ...NO_GATE }, include: (r) => train(r) && hashUnit(99, r.id) < 0.5 },
        { graph, embedder: createEmbedder(direct), indexFactory: FaissVectorIndex, llm: null },
      );
    } finally {
      await source.close();
      await graph.close();
    }
    const test = splitFilter({ ...SPLIT, part: 'test' });
    heldOut = await readDdxplusRecords(test, HELD_OUT);

    const target = new URL(direct.neo4j.uri.replace(/^[a-z+]+:/, 'http:'));
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 7687) });
    config = loadConfig({ ...process.env, NEO4J_URI: `bolt://127.0.0.1:${proxy.port}`, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' });
    server = await startServer({ config, logger: createLogger({ level: 'silent' }), port: 0 });
  });

  after(async () => {
    // lingerMs 0: a teardown; no client sends another request on an idle kept-alive socket, so no 1 s linger.
    await server?.close({ drainMs: 2000, lingerMs: 0 });
    await proxy?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready: Neo4j reachable and the indexes loaded', async () => {
    const res = await fetch(`${server.url}/readyz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ready: true, checks: { neo4j: true, indexes: true } });
  });

  it('a clinician posts a held-out patient and gets a differential with the whole trace', async () => {
    const p = heldOut[0]!;
    const r = await post(`${server.url}/v1/diagnose`, { text: p.text, age: p.age, sex: p.sex });
    assert.equal(r.status, 200, r.text);
    const { differential, trace, followUps } = r.json;
    assert.ok(differential.length >= 3);
    // Probabilities over every disease: the listed ones and what the unlisted keep sum to 1 (issue 26).
    assert.ok(Math.abs(differential.reduce((a: number, d: any) => a + d.score, 0) + r.json.probability.unlisted - 1) < 1e-6);
    for (const d of differential) assert.ok(d.diseaseId.startsWith('dis:') && d.subcategory && d.category);
    assert.ok(trace.findings.length >= 3);
    assert.ok(trace.matches.length > 0 && trace.matches.every((m: any) => m.similarity > 0.5));
    // What a clinician reads of a match is its clinical label, never the DDXPlus question (issue 48).
    assert.ok(trace.matches.every((m: any) => typeof m.featureLabel === 'string' && isClinicalLabel(m.featureLabel)), JSON.stringify(trace.matches.map((m: any) => m.featureLabel)));
    assert.ok(trace.matches.some((m: any) => m.featureLabel !== m.featureText), 'the source text and the label differ for DDXPlus features');
    assert.ok(trace.votes.length > 0 && trace.chosenSubcategory);
    assert.ok(trace.differencesKg.length > 0 && trace.differencesKg.every((t: any) => t.relation && t.subject && t.object));
    assert.equal(trace.retrieved.length, 10);
    assert.ok(trace.retrieved.every((x: any) => typeof x.similarity === 'number' && x.diagnosis));
    // A coded record reads in the clinical voice (issue 48): its labels, never the DDXPlus questionnaire.
    assert.ok(trace.retrieved.every((x: any) => typeof x.summary === 'string' && /^(Male|Female), \d+: /.test(x.summary) && !/\?|\byour?\b/i.test(x.summary)), JSON.stringify(trace.retrieved[0]));
    for (const stage of ['decompose', 'match', 'vote', 'differencesKg', 'retrieve', 'reason', 'total']) assert.equal(typeof trace.timingsMs[stage], 'number', stage);
    assert.ok(followUps.length > 0);
    assert.equal(r.json.reasoner, 'evidence');
    assert.equal(r.json.degraded, false);
  });

  it(`ranks the right disease first for most of ${HELD_OUT} held-out patients`, async () => {
    const diseases = server.query.snapshot.diseases;
    let top1 = 0;
    let top5 = 0;
    for (const p of heldOut) {
      const r = await post(`${server.url}/v1/diagnose`, { text: p.text, age: p.age, sex: p.sex });
      assert.equal(r.status, 200);
      const want = diseases.find((d) => d.name === p.diagnosis || d.aliases.includes(p.diagnosis))?.id;
      const ids = r.json.differential.map((d: any) => d.diseaseId);
      if (ids[0] === want) top1++;
      if (ids.slice(0, 5).includes(want)) top5++;
    }
    process.stderr.write(`    [http-int] held-out top-1 ${top1}/${heldOut.length}, top-5 ${top5}/${heldOut.length}\n`);
    assert.ok(top1 / heldOut.length >= 0.6, `top-1 ${top1}/${heldOut.length}`);
    assert.ok(top5 / heldOut.length >= 0.8, `top-5 ${top5}/${heldOut.length}`);
  });

  it('structured DDXPlus findings (codes) work as input too', async () => {
    const p = heldOut[1]!;
    const findings = p.findings.map((f) => ({ text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode }));
    const r = await post(`${server.url}/v1/diagnose`, { findings, age: p.age, sex: p.sex, options: { topK: 3, followUps: 2 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.trace.retrieved.length, 3);
    assert.ok(r.json.followUps.length <= 2);
    assert.equal(r.json.trace.findings.length, findings.length);
  });

  it('the KG endpoints show the build that was just made', async () => {
    const summary = await (await fetch(`${server.url}/v1/kg/summary`)).json();
    assert.equal(summary.build.id, server.query.snapshot.buildId);
    assert.equal(summary.counts.diseases, server.query.snapshot.diseases.length);
    assert.ok(summary.counts.subcategories >= 2 && summary.counts.features > 50);
    const list = await (await fetch(`${server.url}/v1/kg/diseases`)).json();
    assert.equal(list.diseases.length, summary.counts.diseases);
    const sub = list.diseases[0].subcategoryId;
    const diff = await fetch(`${server.url}/v1/kg/subcategories/${encodeURIComponent(sub)}/differences`);
    assert.equal(diff.status, 200);
    const body = await diff.json();
    assert.equal(body.subcategory.id, sub);
    assert.ok(body.diseases.some((d: any) => d.id === list.diseases[0].id));
    assert.ok(body.triples.some((t: any) => t.relation === 'HAS_KEY_DIFFERENCE') || body.diseases.length === 1);
    assert.equal((await fetch(`${server.url}/v1/kg/subcategories/sub:does-not-exist/differences`)).status, 404);
  });

  it('each kind of bad input is a 400 naming the field, on the real server', async () => {
    const cases: [unknown, string][] = [
      [{ text: 42 }, 'text'],
      [{ text: '' }, 'text'],
      [{ text: 'x'.repeat(config.http.maxTextChars + 1) }, 'text'],
      [{ text: 'cough', mystery: true }, 'mystery'],
      [{ findings: [{ text: 'fever', polarity: 'sometimes' }] }, 'findings.0.polarity'],
    ];
    for (const [body, field] of cases) {
      const r = await post(`${server.url}/v1/diagnose`, body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(r.json.error.field, field);
    }
    const res = await fetch(`${server.url}/v1/diagnose`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":' });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.message, 'body: invalid JSON');
  });

  it('503 with a clear message while Neo4j is unreachable (differences cache off), and recovery without a restart', async () => {
    const uncached = await startServer({ config: { ...config, query: { differencesCache: false } }, logger: createLogger({ level: 'silent' }), port: 0 });
    try {
      await proxy.down();
      try {
        const ready = await fetch(`${uncached.url}/readyz`);
        assert.equal(ready.status, 503);
        assert.equal((await ready.json()).checks.neo4j, false);
        const t0 = Date.now();
        const r = await post(`${uncached.url}/v1/diagnose`, { text: heldOut[2]!.text });
        assert.equal(r.status, 503, r.text);
        assert.equal(r.json.error.code, 'UNAVAILABLE');
        assert.match(r.json.error.message, /Neo4j is unreachable/);
        assert.doesNotMatch(r.text, /\n\s+at |bolt:\/\//);
        const ms = Date.now() - t0;
        process.stderr.write(`    [http-int] 503 after ${ms} ms\n`);
        assert.ok(ms < 8000, `503 took ${ms} ms: the driver's retries must be bounded while serving`);
        for (const path of ['/v1/kg/summary', '/v1/kg/diseases']) assert.equal((await fetch(`${uncached.url}${path}`)).status, 503, path);
      } finally {
        await proxy.up();
      }
      assert.equal((await fetch(`${uncached.url}/readyz`)).status, 200);
      const again = await post(`${uncached.url}/v1/diagnose`, { text: heldOut[2]!.text });
      assert.equal(again.status, 200);
    } finally {
      await uncached.close({ drainMs: 1000, lingerMs: 0 });
    }
  });

  it('answers from the differences KG it already read while Neo4j is unreachable (default cache), the same answer as before', async () => {
    const before = await post(`${server.url}/v1/diagnose`, { text: heldOut[3]!.text });
    assert.equal(before.status, 200);
    assert.ok(before.json.trace.differencesKg.length > 0, 'this patient uses the differences KG');
    await proxy.down();
    try {
      assert.equal((await fetch(`${server.url}/readyz`)).status, 503, 'readiness still reports Neo4j down');
      assert.equal((await fetch(`${server.url}/v1/kg/summary`)).status, 503, 'the live KG endpoints need Neo4j');
      const during = await post(`${server.url}/v1/diagnose`, { text: heldOut[3]!.text });
      assert.equal(during.status, 200, during.text);
      assert.deepEqual(during.json.trace.differencesKg, before.json.trace.differencesKg);
      assert.deepEqual(during.json.differential, before.json.differential);
    } finally {
      await proxy.up();
    }
  });

  describe('with an LLM reasoner on a local OpenAI-compatible endpoint', () => {
    let fake: FakeOpenAI;
    let llmServer: DxServer;
    before(async () => {
      fake = await startFakeOpenAI();
      const env = { ...process.env, NEO4J_URI: config.neo4j.uri, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_EMBEDDER: 'hashed' };
      const llmConfig = loadConfig({ ...env, DXGRAPH_LLM: 'openai', OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'test', DXGRAPH_LLM_TIMEOUT_MS: '1500' });
      llmServer = await startServer({ config: llmConfig, logger: createLogger({ level: 'silent' }), port: 0 });
    });
    after(async () => {
      await llmServer?.close({ drainMs: 1000, lingerMs: 0 });
      await fake?.close();
    });

    it('the LLM answer (a KG disease, a report) comes back through HTTP', async () => {
      const name = server.query.snapshot.diseases[3]!.name;
      // First the decomposition (MedRAG eq. 8, constrained to the KG's concepts), then the reasoner.
      // The evidence answer decomposes with the LLM, and so does the report's LLM diagnose after it (two calls).
      const decomposition = { json: { findings: [{ text: 'a cough', concept: null, assertion: 'present', experiencer: 'patient' }], age: 40, sex: 'F' } };
      fake.push(decomposition, decomposition);
      fake.push({ json: { diagnoses: [{ disease: name, explanation: 'scripted', confidence: 0.7 }], followUpQuestions: ['Any fever?'], treatments: ['t'], medications: ['m'], narrative: 'scripted narrative' } });
      const t0 = Date.now();
      const r = await post(`${llmServer.url}/v1/diagnose`, { text: heldOut[3]!.text, options: { reasoner: 'auto' } });
      assert.equal(r.status, 200, r.text);
      // The differential never waits for the LLM: the evidence answer at once, the LLM's at the href.
      assert.equal(r.json.reasoner, 'evidence');
      const { json: llm } = await fetchReport(llmServer.url, r.json, { since: t0, timeoutMs: 30_000 });
      assert.deepEqual(llm.trace.decomposition, { method: 'llm', fallback: null, age: 40, sex: 'F' });
      assert.equal(llm.reasoner, 'llm');
      assert.equal(llm.degraded, false);
      assert.equal(llm.differential[0].disease, name);
      assert.equal(llm.report.status, 'done');
      assert.equal(llm.report.narrative, 'scripted narrative');
      const prompt = JSON.stringify(fake.chatRequests().at(-1)!.body.messages);
      assert.ok(prompt.includes(llm.trace.differencesKg[0].object), 'the differences KG reaches the prompt');
    });

    it('garbage twice, then a slow endpoint: the evidence answer, degraded, within the timeout', async () => {
      fake.push({ content: 'not json' }, { content: 'still not json' });
      const bad = await post(`${llmServer.url}/v1/diagnose`, { text: heldOut[3]!.text });
      assert.equal(bad.status, 200);
      assert.equal(bad.json.degraded, false, 'the evidence answer at once');
      const { json: failed } = await fetchReport(llmServer.url, bad.json, { since: Date.now(), timeoutMs: 30_000 });
      assert.equal(failed.degraded, true);
      assert.equal(failed.report.status, 'failed');
      assert.equal(failed.report.narrative, undefined);
      const evidence = await post(`${server.url}/v1/diagnose`, { text: heldOut[3]!.text });
      assert.deepEqual(failed.differential.map((d: any) => d.diseaseId), evidence.json.differential.map((d: any) => d.diseaseId));
      fake.push({ delayMs: 20_000, content: '{}' });
      const t0 = Date.now();
      const slow = await post(`${llmServer.url}/v1/diagnose`, { text: heldOut[3]!.text });
      const { json: late, ms } = await fetchReport(llmServer.url, slow.json, { since: t0, timeoutMs: 20_000 });
      assert.equal(late.degraded, true);
      // The answer's decomposition, then the report's decomposition and reasoner: each bounded by the 1.5 s timeout, none by the endpoint's 20 s.
      assert.ok(ms < 3 * 1500 + 3000, `the failed report settled after ${ms} ms`);
    });
  });

  it('`dxgraph serve` drains an in-flight request on SIGTERM and exits 0', async () => {
    const child = spawn(process.execPath, ['bin/dxgraph.js', 'serve', '--port', '0'], {
      env: { ...process.env, NEO4J_URI: config.neo4j.uri, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += String(c)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += String(c);
        const m = /serving on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then((code) => reject(new Error(`serve exited early (${code}): ${stderr.slice(-500)}`)));
    });
    const inFlight = post(`${url}/v1/diagnose`, { text: heldOut[4]!.text });
    await new Promise((r) => setTimeout(r, 30));
    child.kill('SIGTERM');
    const r = await inFlight;
    assert.equal(r.status, 200);
    assert.equal(await exited, 0);
    assert.match(stderr, /"msg":"stopped"/);
    assert.ok(!stderr.includes(heldOut[4]!.text.slice(0, 40)), 'patient text in the server log');
  });
});
