import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import type { AppDeps } from '../../src/http/app.js';
import { clientBucket } from '../../src/http/rate-limit.js';
import { postJson, startFakeApp, type Harness } from './http-fakes.js';

// Real app (createApp) on port 0 over real HTTP; only the query/KG services are fakes.
const KEY_A = 'key-a-0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef';

function config(http: Partial<AppDeps['config']['http']> = {}): AppDeps['config'] {
  return { http: { host: '127.0.0.1', port: 0, apiKeys: [], apiKeyFile: null, maxTextChars: 2000, ...http }, privacy: { dropDemographics: false } };
}

const opts = (url: string, origin: string) =>
  fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' } });

describe('HTTP security: headers and CORS', () => {
  let h: Harness;
  before(async () => {
    h = await startFakeApp({ config: config({ rateLimit: { max: 1000, windowMs: 60_000 } }) });
  });
  after(() => h.close());

  it('sends the security headers on API answers, errors and probes', async () => {
    const answers = [
      await fetch(`${h.url}/healthz`),
      await fetch(`${h.url}/v1/kg/summary`),
      await fetch(`${h.url}/nope`),
      await fetch(`${h.url}/v1/diagnose`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
    ];
    assert.deepEqual(answers.map((r) => r.status), [200, 200, 404, 400]);
    for (const r of answers) {
      const h = r.headers;
      assert.match(h.get('content-security-policy') ?? '', /default-src 'none'.*frame-ancestors 'none'/);
      assert.equal(h.get('x-content-type-options'), 'nosniff');
      assert.equal(h.get('x-frame-options'), 'SAMEORIGIN');
      assert.equal(h.get('referrer-policy'), 'no-referrer');
      assert.equal(h.get('cross-origin-opener-policy'), 'same-origin');
      assert.equal(h.get('cross-origin-resource-policy'), 'same-origin');
      assert.match(h.get('strict-transport-security') ?? '', /max-age=31536000/);
      assert.equal(h.get('x-powered-by'), null);
    }
  });

  it('no CORS header by default, on requests and preflights from any origin', async () => {
    const r = await fetch(`${h.url}/v1/kg/summary`, { headers: { origin: 'https://evil.example' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), null);
    const pre = await opts(`${h.url}/v1/diagnose`, 'https://evil.example');
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    assert.equal(pre.headers.get('access-control-allow-methods'), null);
  });

  describe('with an allow-list (DXGRAPH_CORS_ORIGINS)', () => {
    let c: Harness;
    before(async () => {
      c = await startFakeApp({ apiKeys: [KEY_A], config: config({ corsOrigins: ['https://copilot.example.org'] }) });
    });
    after(() => c.close());

    it('allows only the listed origin, preflight included (before the key check)', async () => {
      const pre = await opts(`${c.url}/v1/diagnose`, 'https://copilot.example.org');
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), 'https://copilot.example.org');
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /authorization/);
      const ok = await postJson(`${c.url}/v1/diagnose`, { text: 'cough' });
      assert.equal(ok.status, 401, 'CORS never replaces the API key');
      const r = await fetch(`${c.url}/v1/kg/summary`, { headers: { origin: 'https://copilot.example.org', authorization: `Bearer ${KEY_A}` } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('access-control-allow-origin'), 'https://copilot.example.org');
      const other = await fetch(`${c.url}/v1/kg/summary`, { headers: { origin: 'https://copilot.example.org.evil.example', authorization: `Bearer ${KEY_A}` } });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
    });
  });
});

describe('HTTP security: rate limit per key, per IP without one', () => {
  it('429 past the limit for one key while another key keeps its own budget', async () => {
    const h = await startFakeApp({ apiKeys: [KEY_A, KEY_B], config: config({ rateLimit: { max: 5, windowMs: 60_000 } }) });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, { authorization: `Bearer ${KEY_A}` })).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
      const limited = await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, { 'x-api-key': KEY_A });
      assert.equal(limited.status, 429, 'the same key in the other header is the same client');
      assert.equal(limited.json.error.code, 'RATE_LIMITED');
      assert.equal(h.calls.length, 5, 'limited requests never reach the pipeline');
      const other = await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, { authorization: `Bearer ${KEY_B}` });
      assert.equal(other.status, 200);
      assert.equal((await fetch(`${h.url}/healthz`)).status, 200, 'probes are not limited');
    } finally {
      await h.close();
    }
  });

  it('says when to retry (Retry-After, RateLimit headers)', async () => {
    const h = await startFakeApp({ config: config({ rateLimit: { max: 2, windowMs: 30_000 } }) });
    try {
      const first = await fetch(`${h.url}/v1/kg/summary`);
      assert.match(first.headers.get('ratelimit-policy') ?? '', /^2;w=30$/);
      await fetch(`${h.url}/v1/kg/summary`);
      const r = await fetch(`${h.url}/v1/kg/summary`);
      assert.equal(r.status, 429);
      const after = Number(r.headers.get('retry-after'));
      assert.ok(after > 0 && after <= 30, String(after));
    } finally {
      await h.close();
    }
  });

  it('guessing keys spends the IP budget: fresh wrong keys buy no fresh budget', async () => {
    const h = await startFakeApp({ apiKeys: [KEY_A], config: config({ rateLimit: { max: 4, windowMs: 60_000 } }) });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, { authorization: `Bearer wrong-${i}-0123456789abcdef` })).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429]);
      assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, { authorization: `Bearer ${KEY_A}` })).status, 200);
    } finally {
      await h.close();
    }
  });

  it('DXGRAPH_RATE_LIMIT_MAX=0 turns the limiter off', async () => {
    const h = await startFakeApp({ config: config({ rateLimit: { max: 0, windowMs: 60_000 } }) });
    try {
      for (let i = 0; i < 30; i++) assert.equal((await fetch(`${h.url}/v1/kg/summary`)).status, 200);
    } finally {
      await h.close();
    }
  });

  it('buckets hold a hash of the key, never the key', () => {
    const hashed = [createHash('sha256').update(KEY_A).digest()];
    const b = clientBucket({ headers: { authorization: `Bearer ${KEY_A}` }, ip: '127.0.0.1' }, hashed);
    assert.match(b, /^key:[0-9a-f]{16}$/);
    assert.ok(!b.includes(KEY_A));
    assert.equal(clientBucket({ headers: { authorization: 'Bearer nope-0123456789abcdef' }, ip: '10.1.2.3' }, hashed), 'ip:10.1.2.3');
    // IPv6 clients are grouped by /56, so one host cannot rotate through its own addresses.
    assert.equal(clientBucket({ headers: {}, ip: '2001:db8:1:1::1' }, hashed), clientBucket({ headers: {}, ip: '2001:db8:1:2::9' }, hashed));
  });
});

describe('HTTP security: body size', () => {
  let h: Harness;
  before(async () => {
    h = await startFakeApp({ maxTextChars: 100 });
  });
  after(() => h.close());

  it('413 from the declared length, for any content type, without reading the body', async () => {
    const limit = 256 * 1024;
    const status = await new Promise<number>((resolve, reject) => {
      // Declares 50 MB but sends only a few bytes: an answer proves nothing waited for the rest.
      const req = request(`${h.url}/v1/diagnose`, { method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': String(50 * 1024 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('hello');
    });
    assert.equal(status, 413);
    const json = await postJson(`${h.url}/v1/diagnose`, JSON.stringify({ text: 'x'.repeat(limit) }));
    assert.equal(json.status, 413);
    assert.equal(json.json.error.code, 'PAYLOAD_TOO_LARGE');
    assert.equal(h.calls.length, 0);
  });
});

describe('HTTP security: a malformed path is the client error', () => {
  let h: Harness;
  before(async () => {
    h = await startFakeApp();
  });
  after(() => h.close());

  it('400 naming the path for invalid percent-encoding (found by the fuzz test), never a 500', async () => {
    for (const path of ['/v1/kg/subcategories/%ZZ/differences', '/v1/kg/subcategories/%C0%AE%C0%AE/differences']) {
      const r = await fetch(h.url + path);
      assert.equal(r.status, 400, path);
      assert.deepEqual((await r.json()).error, { code: 'INPUT', message: 'path: not valid percent-encoding', field: 'path' });
    }
  });
});
