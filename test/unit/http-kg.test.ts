import assert from 'node:assert/strict';
import { ServiceUnavailableError } from '../../src/errors.js';
import { DIFFERENCES, SUMMARY, STACK_LIKE, startFakeApp, type Harness } from './http-fakes.js';

describe('HTTP KG exploration and probes (fake KG reader, real HTTP on port 0)', () => {
  let h: Harness;
  before(async () => {
    h = await startFakeApp();
  });
  after(() => h.close());

  it('an analyst reads the KG summary: counts per tier and the build', async () => {
    const res = await fetch(`${h.url}/v1/kg/summary`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), SUMMARY);
  });

  it('an analyst lists the diseases with their subcategory and category', async () => {
    const body = await (await fetch(`${h.url}/v1/kg/diseases`)).json();
    assert.equal(body.diseases.length, 1);
    assert.equal(body.diseases[0].subcategoryId, 'sub:1');
  });

  it('an analyst reads the differences KG of a subcategory (ids with a colon work in the path)', async () => {
    const res = await fetch(`${h.url}/v1/kg/subcategories/${encodeURIComponent('sub:1')}/differences`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), DIFFERENCES);
  });

  it('404 with a JSON error for an unknown subcategory id', async () => {
    const res = await fetch(`${h.url}/v1/kg/subcategories/sub:nope/differences`);
    assert.equal(res.status, 404);
    const body = await res.json();
    assert.equal(body.error.code, 'NOT_FOUND');
    // Names the field and the rule, never echoes the value (issue 18).
    assert.match(body.error.message, /^id: no subcategory/);
    assert.doesNotMatch(body.error.message, /nope/);
  });

  it('400 naming the id when it is absurdly long', async () => {
    const res = await fetch(`${h.url}/v1/kg/subcategories/${'x'.repeat(300)}/differences`);
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.field, 'id');
  });

  it('404 with a JSON error for an unknown route', async () => {
    const res = await fetch(`${h.url}/v1/nothing-here`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.code, 'NOT_FOUND');
  });

  it('healthz says the process is up', async () => {
    const res = await fetch(`${h.url}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
  });

  it('readyz is 200 only when Neo4j is reachable and the indexes are loaded', async () => {
    assert.equal((await fetch(`${h.url}/readyz`)).status, 200);
    for (const checks of [{ neo4j: false, indexes: true }, { neo4j: true, indexes: false }]) {
      const down = await startFakeApp({ readiness: async () => checks });
      try {
        const res = await fetch(`${down.url}/readyz`);
        assert.equal(res.status, 503);
        assert.deepEqual(await res.json(), { ready: false, checks });
      } finally {
        await down.close();
      }
    }
  });

  it('503 with a clear message on KG endpoints when Neo4j is unreachable', async () => {
    const down = new ServiceUnavailableError('neo4j', 'Neo4j is not reachable at bolt://127.0.0.1:1: ECONNREFUSED');
    const h2 = await startFakeApp({
      kg: { summary: () => Promise.reject(down), diseases: () => Promise.reject(down), differences: () => Promise.reject(down) },
    });
    try {
      for (const path of ['/v1/kg/summary', '/v1/kg/diseases', '/v1/kg/subcategories/sub:1/differences']) {
        const res = await fetch(`${h2.url}${path}`);
        const text = await res.text();
        assert.equal(res.status, 503, path);
        assert.match(JSON.parse(text).error.message, /Neo4j is unreachable/);
        assert.doesNotMatch(text, STACK_LIKE);
      }
    } finally {
      await h2.close();
    }
  });
});
