import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { createChatModel, disposeLocalModels, localModelOf } from '../../src/adapters/llm/chat-model.js';
import { ResponseCache } from '../../src/adapters/llm/response-cache.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { DEFAULT_LOCAL_MODEL_PATH, loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type DxServer } from '../../src/server.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { runBuild } from '../../kg-build/pipeline.js';
import { DDXPLUS_SAMPLE, SMALL_BUILD_PARAMS } from '../support/ddxplus-build.js';

/**
 * Issue 27: the REAL local model (SmolLM2-135M-Instruct, installed by `npm run setup`) through
 * the build's LLM stages and the server's LLM reasoner. A 135M model writes poor medicine, so
 * this checks the contract only: schema-valid answers, provenance (which model, LLM key-difference
 * nodes, cached replies), the fallback and the budget, and that no patient text reaches the log.
 * Lean on purpose (2 CPUs): two diseases, a handful of short generations.
 */
const DISEASES = new Set(['Pneumonia', 'Bronchitis']);
const MARKER = 'Quillfeather';
const PATIENT = `Mr ${MARKER}, 58, has had a productive cough with green sputum and a fever of 39 C for four days, with pain on the right side of the chest when he breathes in.`;

async function post(url: string, body: unknown): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), text };
}

function capturedLogger(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  return { logger: createLogger({ level: 'debug', destination: sink }), text: () => lines.join('') };
}

describe('local LLM end to end (node-llama-cpp, SmolLM2-135M, real Neo4j)', function () {
  this.timeout(600_000);
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let config: Config;
  let server: DxServer | undefined;
  const log = capturedLogger();

  before(function () {
    assert.ok(existsSync(DEFAULT_LOCAL_MODEL_PATH), `no model at ${DEFAULT_LOCAL_MODEL_PATH}: run npm run setup`);
    dataDir = mkdtempSync(join(tmpdir(), 'dx-local-llm-'));
    env = { ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LLM: 'local', DXGRAPH_LLM_THREADS: '2', DXGRAPH_LLM_TIMEOUT_MS: '150000', DXGRAPH_LLM_BUDGET_MS: '300000', DXGRAPH_LOG_LEVEL: 'debug' };
    config = loadConfig(env);
  });
  after(async () => {
    await server?.close({ drainMs: 1000 });
    await disposeLocalModels();
  });

  async function build(): Promise<{ llmCalls: number; buildMs: number }> {
    const graph = new GraphStore(config.neo4j);
    await graph.connect();
    const source = await openSource(parseSourceSpec(`ddxplus:${DDXPLUS_SAMPLE}`), { strict: false });
    const chat = createChatModel(config);
    const before = localModelOf(chat)!.usage().calls;
    const t0 = Date.now();
    try {
      await runBuild(
        // Both in one subcategory, so each has siblings to contrast; no gate (its annotation would ask the LLM per sentence).
        { source, dataDir, params: { ...SMALL_BUILD_PARAMS, sizes: { subcategories: 1, categories: 1 }, gate: { maxExamples: 0 } }, include: (r) => DISEASES.has(r.diagnosis) },
        { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: { chat, cache: new ResponseCache(join(dataDir, 'llm-cache')), timeoutMs: config.llm.timeoutMs, concurrency: 1 } },
      );
    } finally {
      await source.close();
      await graph.close();
    }
    return { llmCalls: localModelOf(chat)!.usage().calls - before, buildMs: Date.now() - t0 };
  }

  it('the build asks the model for features and key differences, keeps them as LLM nodes, and a rebuild costs no call (cache)', async () => {
    const first = await build();
    assert.ok(first.llmCalls >= 4 && first.llmCalls <= 8, `2 feature + 2 key-difference prompts, repairs at most doubling them (got ${first.llmCalls})`);
    const graph = new GraphStore(config.neo4j);
    await graph.connect();
    try {
      const [kd] = await graph.runText("MATCH (d:Disease)-[]-(k:KeyDifference {source: 'llm'}) RETURN count(DISTINCT k) AS n, count(DISTINCT d) AS d", {}, 'READ');
      assert.ok(Number(kd?.n) >= 2 && Number(kd?.d) === 2, `LLM key-difference nodes for both diseases: ${JSON.stringify(kd)}`);
    } finally {
      await graph.close();
    }
    const again = await build();
    assert.equal(again.llmCalls, 0, 'every reply came from the response cache');
    process.stdout.write(`      build with LLM stages on 2 diseases: ${first.buildMs} ms (${first.llmCalls} calls), cached rebuild ${again.buildMs} ms\n`);
  });

  it('/v1/diagnose with reasoner "llm": the model answers (schema-valid, KG diseases, a report), names itself, and logs no patient text', async () => {
    server = await startServer({ config, logger: log.logger, port: 0 });
    const local = localModelOf(createChatModel(config))!;
    const u0 = local.usage();
    const t0 = Date.now();
    const r = await post(`${server.url}/v1/diagnose`, { text: PATIENT, options: { reasoner: 'llm' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.reasoner, 'llm');
    assert.equal(r.json.model, 'SmolLM2-135M-Instruct.Q4_1 (local)');
    assert.equal(r.json.degraded, false, 'grammar-constrained output validates');
    assert.equal(typeof r.json.report.narrative, 'string');
    assert.ok(r.json.differential.length >= 1 && r.json.differential.length <= 2);
    const known = new Set(server.query.snapshot.diseases.map((d) => d.name));
    for (const d of r.json.differential) assert.ok(known.has(d.disease), `${d.disease} is a KG disease`);
    assert.ok(Math.abs(r.json.differential.reduce((a: number, d: any) => a + d.score, 0) - 1) < 1e-6);
    assert.equal(r.json.trace.decomposition.method, 'rules', 'a local model does not decompose unless DXGRAPH_LLM_DECOMPOSE=on');
    const u = local.usage();
    process.stdout.write(`      diagnose with the local model: ${Date.now() - t0} ms, ${u.calls - u0.calls} call(s), ${u.inputTokens - u0.inputTokens} prompt + ${u.outputTokens - u0.outputTokens} reply tokens\n`);
    assert.ok(log.text().includes('local LLM loaded'));
    assert.ok(!log.text().includes(MARKER), 'patient text in the log');
  });

  it('a spent LLM budget degrades to the evidence reasoner (model null, no report), logged without patient text', async () => {
    await server?.close({ drainMs: 1000 });
    server = await startServer({ config: loadConfig({ ...env, DXGRAPH_LLM_BUDGET_MS: '100' }), logger: log.logger, port: 0 });
    const r = await post(`${server.url}/v1/diagnose`, { text: PATIENT, options: { reasoner: 'llm' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.degraded, true);
    assert.equal(r.json.model, null);
    assert.equal(r.json.report, null);
    assert.ok(r.json.differential.length > 0);
    assert.ok(log.text().includes('reasoner degraded to fallback'));
    assert.ok(!log.text().includes(MARKER), 'patient text in the log');
  });
});
