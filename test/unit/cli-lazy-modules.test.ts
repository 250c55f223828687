import assert from 'node:assert/strict';
import { OpenAIEmbeddings } from '@langchain/openai';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { buildFlagsOf } from '../../src/cli/build-command.js';
import { loadConfig } from '../../src/config.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';

/**
 * Issue 49: the CLI loads what a command runs only when it runs, and LangChain's OpenAI client
 * only when it is configured. What moved must behave as before.
 */
describe('CLI start-up: what is loaded late behaves as before', () => {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('the OpenAI embedder (client imported on its first call) returns what OpenAIEmbeddings returns', async () => {
    fake = await startFakeOpenAI({ replies: [] });
    const config = loadConfig({ OPENAI_BASE_URL: fake.baseUrl, DXGRAPH_EMBEDDER: 'openai', DXGRAPH_EMBED_MODEL: 'fake-embed' });
    const named = createEmbedder(config);
    assert.match(named.id, /^openai:/);
    const direct = new OpenAIEmbeddings({ model: config.embedder.kind === 'openai' ? config.embedder.model : '', apiKey: 'x', configuration: { baseURL: fake.baseUrl } });
    const texts = ['chest pain', 'rash'];
    assert.deepEqual(await named.embeddings.embedDocuments(texts), await direct.embedDocuments(texts));
    assert.deepEqual(await named.embeddings.embedQuery('cough'), await direct.embedQuery('cough'));
  });

  it("build's flags parsed without running it: the command's defaults, and --no-calibrate", () => {
    const plain = buildFlagsOf(['--source', 'fhir:x']);
    assert.deepEqual(plain.source, ['fhir:x']);
    assert.equal(plain.hierarchy, 'auto');
    assert.equal(plain.batchSize, 5000);
    assert.equal(plain.calibrate, true);
    const flags = buildFlagsOf(['--source', 'fhir:x', '--source', 'ddxplus:y', '--gate-sample', '0', '--no-calibrate']);
    assert.deepEqual(flags.source, ['fhir:x', 'ddxplus:y']);
    assert.equal(flags.gateSample, 0);
    assert.equal(flags.calibrate, false);
    assert.throws(() => buildFlagsOf(['--source', 'fhir:x', '--batch-size', 'x']), /--batch-size must be an integer/);
  });
});
