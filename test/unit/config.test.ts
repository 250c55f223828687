import { DEFAULT_RECORD_RETRIEVAL } from '../../src/query/retrieve-records.js';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { assertConfigRejects } from '../support/config-assert.js';

const rejects = assertConfigRejects;

describe('config', () => {
  it('has working defaults with an empty environment', () => {
    const c = loadConfig({});
    assert.equal(c.neo4j.uri, 'bolt://127.0.0.1:7687');
    assert.equal(c.http.port, 8080);
    assert.equal(c.http.host, '127.0.0.1');
    assert.equal(c.llm.enabled, false);
  });

  it('reads the variables it is given', () => {
    const c = loadConfig({ NEO4J_URI: 'neo4j://db.local:7688', NEO4J_PASSWORD: 'pw', PORT: '0', DXGRAPH_API_KEYS: 'a, b,' });
    assert.equal(c.neo4j.uri, 'neo4j://db.local:7688');
    assert.equal(c.neo4j.password, 'pw');
    assert.equal(c.http.port, 0);
    assert.deepEqual(c.http.apiKeys, ['a', 'b']);
  });

  for (const bad of ['eighty', '-1', '65536', '80.5']) {
    it(`rejects PORT=${bad} naming PORT`, () => rejects({ PORT: bad }, 'PORT'));
  }

  for (const bad of ['http://127.0.0.1:7474', '127.0.0.1:7687', 'bolt://', 'bolt://host:port', 'bolt://a b:7687']) {
    it(`rejects NEO4J_URI=${bad} naming NEO4J_URI`, () => rejects({ NEO4J_URI: bad }, 'NEO4J_URI'));
  }

  it('quotes the bad value so the user sees what was read', () => {
    assert.throws(() => loadConfig({ NEO4J_URI: 'http://x:1' }), /"http:\/\/x:1"/);
  });

  it('rejects an unknown embedder and an openai embedder without an endpoint', () => {
    rejects({ DXGRAPH_EMBEDDER: 'word2vec' }, 'DXGRAPH_EMBEDDER');
    rejects({ DXGRAPH_EMBEDDER: 'openai' }, 'DXGRAPH_EMBEDDER');
  });
});

describe('config: the evidence reasoner prior weights (DXGRAPH_PRIOR_WEIGHTS, issue 24 ablation)', () => {
  it('reads any subset of vote, keyDifferences and knn', () => {
    assert.deepEqual(loadConfig({ DXGRAPH_PRIOR_WEIGHTS: 'vote=0, knn=2.5' }).priorWeights, { voteWeight: 0, knnWeight: 2.5 });
    assert.deepEqual(loadConfig({ DXGRAPH_PRIOR_WEIGHTS: 'keyDifferences=0' }).priorWeights, { keyDifferenceWeight: 0 });
    assert.deepEqual(loadConfig({ DXGRAPH_PRIOR_WEIGHTS: 'profiles=0,knn=0' }).priorWeights, { profileWeight: 0, knnWeight: 0 });
  });
  it('knowledge=0 turns off the curated rates free text is priced with (scoring-knowledge.ts)', () => {
    assert.deepEqual(loadConfig({ DXGRAPH_PRIOR_WEIGHTS: 'knowledge=0' }).priorWeights, { knowledgeRecords: 0 });
  });
  it('leaves the reasoner defaults when unset', () => assert.deepEqual(loadConfig({}).priorWeights, {}));
  it('rejects an unknown prior or a non-number, naming the variable', () => {
    assert.throws(() => loadConfig({ DXGRAPH_PRIOR_WEIGHTS: 'gate=1' }), /DXGRAPH_PRIOR_WEIGHTS/);
    assert.throws(() => loadConfig({ DXGRAPH_PRIOR_WEIGHTS: 'vote=-1' }), /DXGRAPH_PRIOR_WEIGHTS/);
  });
});

describe('config: how similar records are found (DXGRAPH_RECORD_RETRIEVAL)', () => {
  it('takes dense, lexical, hybrid or none (off), and has a default', () => {
    assert.equal(loadConfig({ DXGRAPH_RECORD_RETRIEVAL: 'lexical' }).query?.recordRetrieval, 'lexical');
    assert.equal(loadConfig({ DXGRAPH_RECORD_RETRIEVAL: 'none' }).query?.recordRetrieval, 'none');
    assert.equal(loadConfig({}).query?.recordRetrieval, DEFAULT_RECORD_RETRIEVAL);
  });
  it('rejects anything else, naming the variable', () => assert.throws(() => loadConfig({ DXGRAPH_RECORD_RETRIEVAL: 'bm25' }), /DXGRAPH_RECORD_RETRIEVAL/));
});

describe('config: retries of an OpenAI-compatible endpoint (DXGRAPH_LLM_MAX_RETRIES)', () => {
  it('defaults to one retry and reads 0 to 10', () => {
    assert.equal(loadConfig({}).llm.maxRetries, 1);
    assert.equal(loadConfig({ DXGRAPH_LLM_MAX_RETRIES: '0' }).llm.maxRetries, 0);
  });
  it('rejects a negative or unbounded count, naming the variable', () => {
    assert.throws(() => loadConfig({ DXGRAPH_LLM_MAX_RETRIES: '-1' }), /DXGRAPH_LLM_MAX_RETRIES/);
    assert.throws(() => loadConfig({ DXGRAPH_LLM_MAX_RETRIES: '50' }), /DXGRAPH_LLM_MAX_RETRIES/);
  });
});
