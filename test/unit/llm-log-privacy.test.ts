import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createChatModel } from '../../src/adapters/llm/chat-model.js';
import { completeJson } from '../../src/adapters/llm/structured.js';
import { filterKnowledge, loadKnowledgeFilterPrompt } from '../../src/gate/knowledge-filter.js';
import { createLogger } from '../../src/logger.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import { loadDiagnosePrompt } from '../../src/reasoners/llm-prompt.js';
import { LlmReasoner } from '../../src/reasoners/llm-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';
import { WithFallback } from '../../src/reasoners/with-fallback.js';
import { z } from 'zod';

/**
 * Issue 18, defect 2: an OpenAI-compatible endpoint that quotes the request (patient text) in
 * its error message or its reply must not put that text in the log. The endpoint here echoes
 * every request body in the way named by the test; everything the reasoner, its fallback and
 * the knowledge filter log (pino at the default level) is captured and grepped for the marker.
 */
const MARKER = 'ZQXJ-PATIENT-MARKER-7731';

type EchoMode = 'error-500' | 'error-400' | 'error-429' | 'prose' | 'html' | 'broken-json' | 'bad-keys';

async function startEchoEndpoint(mode: () => EchoMode): Promise<{ baseUrl: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits++;
      const echoed = Buffer.concat(chunks).toString('utf8').slice(0, 4000);
      const m = mode();
      const chat = (content: string) => JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
      if (m.startsWith('error-')) {
        res.writeHead(Number(m.slice(6)), { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `cannot handle request: ${echoed}`, type: 'invalid_request_error' } }));
      } else if (m === 'html') {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Not JSON although declared so, starting with the patient's words: JSON.parse's message quotes the first characters.
        res.end(`${MARKER} <html>proxy error for ${echoed}</html>`);
      } else if (m === 'prose') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(chat(`You said: ${echoed}`));
      } else if (m === 'broken-json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(chat(`{"diagnoses": [${JSON.stringify(echoed)}`));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(chat(JSON.stringify({ [`${MARKER} key`]: true, status: `${MARKER}` })));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, hits: () => hits };
}

const snapshot = buildSnapshot({
  categories: [{ id: 'cat:r', name: 'Respiratory' }],
  subcategories: [{ id: 'sub:i', name: 'Infections', categoryId: 'cat:r' }],
  diseases: [
    { id: 'dis:p', name: 'Pneumonia', subcategoryId: 'sub:i', icd10: null, recordCount: 3, aliases: [] },
    { id: 'dis:b', name: 'Bronchitis', subcategoryId: 'sub:i', icd10: null, recordCount: 2, aliases: [] },
  ],
  features: [{ id: 'feat:f', text: 'fever', kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: false }],
  manifestations: [{ diseaseId: 'dis:p', featureId: 'feat:f', prevalence: 0.9, count: 3, source: 'ehr' }],
});

const patientText = `Fever for three days, ${MARKER}, worse at night.`;
const ctx: ReasonerContext = {
  input: { text: patientText, findings: [], age: null, sex: null, options: DEFAULT_OPTIONS },
  findings: [{ text: `fever ${MARKER}`, polarity: 'present', code: null, valueCode: null }],
  matches: [{ findingIndex: 0, featureId: 'feat:f', featureText: 'fever', similarity: 0.9, polarity: 'present' }],
  votes: [{ subcategoryId: 'sub:i', name: 'Infections', votes: 1 }],
  candidates: [{ subcategoryId: 'sub:i', name: 'Infections', votes: 1 }],
  differencesKg: [],
  retrieved: [],
  followUps: [],
  snapshot,
  signal: null,
};

function capture() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _e, cb) {
        lines.push(String(chunk));
        cb();
      },
    }),
  });
  return { lines, logger };
}

describe('LLM failures log a category and status, never endpoint text (issue 18)', function () {
  this.timeout(20000);
  let mode: EchoMode = 'error-500';
  let endpoint: Awaited<ReturnType<typeof startEchoEndpoint>>;
  before(async () => {
    endpoint = await startEchoEndpoint(() => mode);
  });
  after(() => new Promise<void>((r) => endpoint.server.close(() => r())));

  const config = () => ({ llm: { enabled: true, model: 'm', apiKey: 'k', baseUrl: endpoint.baseUrl, timeoutMs: 3000 } });

  for (const m of ['error-500', 'error-400', 'error-429', 'prose', 'html', 'broken-json'] as EchoMode[]) {
    it(`reasoner + fallback: an endpoint that echoes the patient (${m}) leaves no patient text in the log`, async () => {
      mode = m;
      const before = endpoint.hits();
      const { lines, logger } = capture();
      const llm = new LlmReasoner({ chat: createChatModel(config(), { maxRetries: 0 }), prompt: await loadDiagnosePrompt(), timeoutMs: 3000 });
      const out = await new WithFallback(llm, new EvidenceReasoner(), { timeoutMs: 3000, logger }).reason(ctx);
      assert.equal(out.degraded, true);
      assert.ok(endpoint.hits() > before, 'the endpoint was called');
      const log = lines.join('');
      assert.match(log, /reasoner degraded to fallback/, 'the failure itself is logged');
      assert.doesNotMatch(log, new RegExp(MARKER), `patient marker in log: ${log}`);
      assert.doesNotMatch(log, /cannot handle request|You said|proxy error/, 'no endpoint text in the log');
      if (m.startsWith('error-')) assert.match(log, new RegExp(`HTTP ${m.slice(6)}`), 'the HTTP status is logged');
    });
  }

  it('completeJson failure messages carry neither the endpoint message, the reply, nor invented keys', async () => {
    for (const m of ['error-500', 'prose', 'html', 'broken-json', 'bad-keys'] as EchoMode[]) {
      mode = m;
      const r = await completeJson({
        chat: createChatModel(config(), { maxRetries: 0 }),
        prompt: patientText,
        schema: z.strictObject({ status: z.boolean() }),
        timeoutMs: 3000,
      });
      assert.equal(r.ok, false);
      if (r.ok) continue;
      const visible = `${r.error.message} ${r.error.error.message} ${JSON.stringify(r.error)} ${String((r.error.error as { cause?: unknown }).cause ?? '')}`;
      assert.doesNotMatch(visible, new RegExp(MARKER), `${m}: ${visible}`);
      assert.doesNotMatch(visible, /cannot handle request|You said|proxy error/, `${m}: ${visible}`);
    }
  });

  it('knowledge filter: verdict failures keep the records and expose only a failure kind', async () => {
    mode = 'error-500';
    const prompt = await loadKnowledgeFilterPrompt();
    const records = [{ id: 'r1', diagnosis: 'Pneumonia', text: `record about ${MARKER}` }];
    const r = await filterKnowledge({ patient: patientText, records }, { chat: createChatModel(config(), { maxRetries: 0 }), prompt }, { timeoutMs: 3000 });
    assert.equal(r.degraded, true);
    assert.deepEqual(r.kept.map((k) => k.id), ['r1']);
    assert.deepEqual(r.verdicts.map((v) => v.failure), ['unavailable']);
    assert.doesNotMatch(JSON.stringify(r.verdicts), new RegExp(MARKER));
  });
});
