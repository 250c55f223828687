import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/errors.js';
import { assertSafeBinding, isLoopback, loadApiKeys } from '../../src/http/access.js';
import { postJson, startFakeApp, type Harness } from './http-fakes.js';

const KEY = 'k-0123456789abcdef-test';
const http = { host: '127.0.0.1', port: 0, apiKeys: [] as string[], apiKeyFile: null as string | null, maxTextChars: 100 };

describe('HTTP access: API keys', () => {
  let h: Harness;
  before(async () => {
    h = await startFakeApp({ apiKeys: [KEY, 'another-key-0123456789'] });
  });
  after(() => h.close());

  it('401 on /v1 routes without a key when keys are configured', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'cough' });
    assert.equal(r.status, 401);
    assert.equal(r.json.error.code, 'UNAUTHORIZED');
    assert.equal(h.calls.length, 0);
    assert.equal((await fetch(`${h.url}/v1/kg/summary`)).status, 401);
  });

  it('401 with a wrong key, a key prefix, or an empty bearer', async () => {
    for (const headers of <Record<string, string>[]>[{ authorization: 'Bearer wrong-key-0123456789' }, { 'x-api-key': KEY.slice(0, -1) }, { authorization: 'Bearer ' }]) {
      assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, headers)).status, 401);
    }
  });

  it('200 with the key as a bearer token or in x-api-key', async () => {
    assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, { authorization: `Bearer ${KEY}` })).status, 200);
    assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, { 'x-api-key': 'another-key-0123456789' })).status, 200);
  });

  it('probes and the OpenAPI document stay open for orchestrators', async () => {
    for (const path of ['/healthz', '/readyz', '/openapi.json']) assert.equal((await fetch(`${h.url}${path}`)).status, 200, path);
  });
});

describe('HTTP access: binding and key loading', () => {
  it('recognises loopback hosts', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2']) assert.equal(isLoopback(host), true, host);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.org', '128.0.0.1']) assert.equal(isLoopback(host), false, host);
  });

  it('refuses to start on a non-loopback host with no API key, naming the variables', () => {
    assert.throws(() => assertSafeBinding('0.0.0.0', []), (e: unknown) => e instanceof ConfigError && /DXGRAPH_API_KEYS/.test(e.message));
    assert.doesNotThrow(() => assertSafeBinding('0.0.0.0', [KEY]));
    assert.doesNotThrow(() => assertSafeBinding('127.0.0.1', []));
  });

  it('reads keys from the env list and from a key file, skipping comments', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dx-keys-'));
    const file = join(dir, 'keys');
    writeFileSync(file, `# ops keys\n${KEY}\n\nfile-key-0123456789abc\n`);
    assert.deepEqual(loadApiKeys({ ...http, apiKeys: ['env-key-0123456789abc'], apiKeyFile: file }), ['env-key-0123456789abc', KEY, 'file-key-0123456789abc']);
  });

  it('rejects a missing key file and too-short keys with a ConfigError', () => {
    assert.throws(() => loadApiKeys({ ...http, apiKeyFile: '/nonexistent/keys' }), /DXGRAPH_API_KEY_FILE/);
    assert.throws(() => loadApiKeys({ ...http, apiKeys: ['short'] }), /at least 16/);
  });
});

describe('HTTP request logs', () => {
  it('log method, route, status and duration, never the body or patient text', async () => {
    const h = await startFakeApp();
    try {
      await postJson(`${h.url}/v1/diagnose`, { text: 'Jane Doe has crushing chest pain', age: 61 });
      await postJson(`${h.url}/v1/diagnose`, { text: 'Jane Doe', nope: 1 });
      await fetch(`${h.url}/v1/kg/subcategories/sub:secret-id/differences`);
      const lines = h.logs.map((l) => JSON.parse(l));
      const requests = lines.filter((l) => l.msg === 'request');
      assert.equal(requests.length, 3);
      assert.deepEqual(
        requests.map((l) => [l.method, l.route, l.status]),
        [
          ['POST', '/v1/diagnose', 200],
          ['POST', '/v1/diagnose', 400],
          ['GET', '/v1/kg/subcategories/:id/differences', 404],
        ],
      );
      for (const l of requests) assert.equal(typeof l.durationMs, 'number');
      const all = h.logs.join('');
      assert.doesNotMatch(all, /Jane|chest|secret-id/);
    } finally {
      await h.close();
    }
  });
});
