import { strict as assert } from 'node:assert';
import { createHmac, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { DEFAULT_CDS, type CdsConfig } from '../../src/cds-hooks/cds-config.js';
import { parseJwks } from '../../src/cds-hooks/jwt.js';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { postJson, startFakeApp, type Harness } from './http-fakes.js';

/**
 * CDS Hooks over HTTP as an EHR uses it, on the real app with a fake query service: discovery,
 * a hook call with prefetch, the same call reading a FHIR server (a stub on port 0) with the
 * client's bearer token, and the EHR's JWT (keys generated here) refused for every reason
 * the specification and RFC 7519 give.
 */
const PUBLIC = 'https://dx.example.org';
const ISS = 'https://ehr.example.org';
const API_KEY = 'k3y-Ab9x-77QpZr-Lm4t-Wv2y';
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwks = parseJwks({ keys: [{ ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec1' }, { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'rsa1', alg: 'RS256' }] });
if (!jwks.ok) throw new Error(jwks.error);

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
function jwt(claims: Record<string, unknown>, o: { alg?: string; kid?: string; key?: KeyObject; hmacSecret?: string } = {}): string {
  const alg = o.alg ?? 'ES256';
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg, typ: 'JWT', kid: o.kid ?? (alg === 'RS256' ? 'rsa1' : 'ec1') })}.${b64({ iss: ISS, iat: now, exp: now + 300, jti: randomUUID(), ...claims })}`;
  if (o.hmacSecret !== undefined) return `${input}.${createHmac('sha256', o.hmacSecret).update(input).digest('base64url')}`;
  const sig = alg === 'RS256' ? sign('sha256', Buffer.from(input), o.key ?? rsa.privateKey) : sign('sha256', Buffer.from(input), { key: o.key ?? ec.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const SERVICE = 'dxgraph-differential';
const aud = (path = `/cds-services/${SERVICE}`) => `${PUBLIC}${path}`;

const bundle = (name: string): Bundle => JSON.parse(readFileSync(`datasets/fhir-synthetic/bundles/${name}.json`, 'utf8')) as Bundle;
const p4 = (bundle('p4').entry ?? []).map((e) => e.resource!);
const searchset = (type: string): Bundle => ({ resourceType: 'Bundle', type: 'searchset', entry: p4.filter((r) => r.resourceType === type).map((resource: Resource) => ({ resource })) });
const PREFETCH = { patient: p4[0], conditions: searchset('Condition'), observations: searchset('Observation'), notes: { resourceType: 'Bundle', type: 'searchset', entry: [] } };
const hookRequest = (over: Record<string, unknown> = {}) => ({ hook: 'patient-view', hookInstance: randomUUID(), context: { userId: 'Practitioner/1', patientId: 'p4' }, prefetch: PREFETCH, ...over });

describe('CDS Hooks over HTTP (JWT auth, prefetch, FHIR server reads)', () => {
  let app: Harness;
  let fhir: Server;
  let fhirUrl: string;
  const fhirSeen: Array<{ path: string; auth: string | undefined }> = [];
  const cds: CdsConfig = { ...DEFAULT_CDS, jwt: { keys: jwks.value, issuers: [ISS] }, publicUrl: PUBLIC, fhirTimeoutMs: 500 };

  before(async () => {
    fhir = createServer((req, res) => {
      fhirSeen.push({ path: req.url!, auth: req.headers.authorization });
      if (req.url!.startsWith('/hang/')) return; // never answers: the timeout must
      if (req.url!.startsWith('/broken/')) return void res.writeHead(500).end();
      const type = req.url!.split(/[/?]/)[1]!;
      res.setHeader('content-type', 'application/fhir+json');
      res.end(JSON.stringify(type === 'Patient' ? p4[0] : type === 'DocumentReference' ? { resourceType: 'Bundle', type: 'searchset', entry: [] } : searchset(type)));
    });
    await new Promise<void>((r) => fhir.listen(0, '127.0.0.1', r));
    fhirUrl = `http://127.0.0.1:${(fhir.address() as AddressInfo).port}`;
    app = await startFakeApp({ apiKeys: [API_KEY], config: { http: { host: '127.0.0.1', port: 0, apiKeys: [API_KEY], apiKeyFile: null, maxTextChars: 2000 }, privacy: { dropDemographics: false }, cds } });
  });
  after(async () => {
    await app.close();
    fhir.closeAllConnections();
    await new Promise((r) => fhir.close(r));
  });

  it('discovery: 401 without a token; with the EHR JWT (aud = /cds-services) the services and their prefetch templates', async () => {
    assert.equal((await fetch(`${app.url}/cds-services`)).status, 401);
    const res = await fetch(`${app.url}/cds-services`, { headers: bearer(jwt({ aud: aud('/cds-services') })) });
    assert.equal(res.status, 200);
    const { services } = (await res.json()) as { services: Array<Record<string, any>> };
    const pv = services.find((s) => s.hook === 'patient-view')!;
    assert.equal(pv.id, SERVICE);
    assert.equal(typeof pv.description, 'string');
    assert.equal(pv.prefetch.patient, 'Patient/{{context.patientId}}');
    assert.ok(services.some((s) => s.hook === 'encounter-start' && /\{\{context\.encounterId\}\}/.test(s.prefetch.observations)));
  });

  it('a hook call with prefetch: one card from the chart\'s coded findings, with age and sex', async () => {
    const before = app.calls.length;
    const r = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ context: { userId: 'Practitioner/1', patientId: 'p4', encounterId: 'e6' } }), bearer(jwt({ aud: aud() })));
    assert.equal(r.status, 200, r.text);
    const input = app.calls[before]!;
    assert.ok(input.findings.some((f) => /Dysuria/.test(f.text)) && input.findings.every((f) => !/Urinary tract infect/i.test(f.text)));
    assert.equal(input.sex, 'M', 'p4 is male');
    assert.ok(typeof input.age === 'number' && input.age > 0);
    assert.equal(r.json.cards.length, 1);
    const card = r.json.cards[0];
    assert.ok(card.summary.length < 140 && ['info', 'warning', 'critical'].includes(card.indicator) && card.source.label !== '');
    assert.deepEqual(card.links.map((l: any) => l.type), ['absolute']);
  });

  it('the JWT is refused: wrong issuer, wrong audience, expired, no exp, HS256, alg none, another key', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, string, RegExp]> = [
      ['issuer', jwt({ aud: aud(), iss: 'https://evil.example.org' }), /iss/],
      ['audience', jwt({ aud: aud('/cds-services/other') }), /aud/],
      ['expired', jwt({ aud: aud(), exp: now - 120 }), /expired/],
      ['no exp', jwt({ aud: aud(), exp: undefined }), /exp is required/],
      ['HS256', jwt({ aud: aud() }, { alg: 'HS256', hmacSecret: JSON.stringify(ec.publicKey.export({ format: 'jwk' })) }), /asymmetric/],
      ['none', `${b64({ alg: 'none' })}.${b64({ iss: ISS, aud: aud(), exp: now + 60, iat: now, jti: 'x' })}.`, /asymmetric/],
      ['other key', jwt({ aud: aud() }, { key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }), /signature/],
    ];
    for (const [why, token, message] of cases) {
      const r = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest(), bearer(token));
      assert.equal(r.status, 401, why);
      assert.match(r.json.error.message, message, why);
    }
    const rsToken = jwt({ aud: aud() }, { alg: 'RS256' });
    const rs = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest(), bearer(rsToken));
    assert.equal(rs.status, 200, 'RS256 with the configured RSA key');
    const replay = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest(), bearer(rsToken));
    assert.equal(replay.status, 401, 'the same jti twice is a replay');
    assert.match(replay.json.error.message, /jti/);
  });

  it('the API key keeps working for /v1 (and does not open /cds-services when a JWKS is configured)', async () => {
    assert.equal((await postJson(`${app.url}/v1/diagnose`, { text: 'cough' }, { 'x-api-key': API_KEY })).status, 200);
    assert.equal((await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest(), { 'x-api-key': API_KEY })).status, 401);
  });

  it('malformed requests are 400 naming the field; an unknown service 404; never 500', async () => {
    const t = () => bearer(jwt({ aud: aud() }));
    const noPatient = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ context: { userId: 'u' } }), t());
    assert.equal(noPatient.status, 400);
    assert.match(noPatient.json.error.message, /context\.patientId/);
    const wrongHook = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ hook: 'order-sign' }), t());
    assert.equal(wrongHook.status, 400);
    assert.match(wrongHook.json.error.message, /patient-view/);
    assert.equal((await postJson(`${app.url}/cds-services/${SERVICE}`, '{not json', t())).status, 400);
    assert.equal((await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ prefetch: 'x' }), t())).status, 400);
    // Resources shaped otherwise than FHIR R4 (the mapping reads them as R4): 400, never 500.
    const bad: unknown[] = [
      { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Observation', id: 'x', code: { coding: 'LOINC' } } }] },
      { resourceType: 'Bundle', entry: 'nope' },
      { resourceType: 'Condition', id: 'c', code: { coding: [{ system: 'http://snomed.info/sct', code: 5 }] }, category: 'x' },
      { resourceType: 'Observation', id: 'o', code: { coding: [{ code: '1' }] }, encounter: { reference: 7 }, valueQuantity: 'x' },
      { resourceType: 'DocumentReference', id: 'd', content: [{ attachment: { contentType: 'text/plain', data: 12 } }] },
    ];
    for (const [i, observations] of bad.entries()) {
      const r = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ prefetch: { ...PREFETCH, observations } }), t());
      assert.ok(r.status === 400 || r.status === 200, `bad resource ${i}: ${r.status} ${r.text}`);
      if (i === 0) assert.match(r.json.error.message, /not shaped as FHIR R4/);
    }
    const unknown = await postJson(`${app.url}/cds-services/nope`, hookRequest(), bearer(jwt({ aud: aud('/cds-services/nope') })));
    assert.equal(unknown.status, 404);
  });

  it('prefetch missing: 412 without fhirServer; read from fhirServer with the bearer token; 412 when it fails or hangs', async () => {
    const t = () => bearer(jwt({ aud: aud() }));
    const missing = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ prefetch: { ...PREFETCH, observations: null } }), t());
    assert.equal(missing.status, 412);
    assert.match(missing.json.error.message, /prefetch\.observations/);
    const auth = { access_token: 'tok-123', token_type: 'Bearer', expires_in: 300, scope: 'patient/*.read', subject: 'cds' };
    fhirSeen.length = 0;
    const read = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ prefetch: undefined, fhirServer: fhirUrl, fhirAuthorization: auth }), t());
    assert.equal(read.status, 200, read.text);
    assert.equal(read.json.cards.length, 1);
    assert.deepEqual(fhirSeen.map((s) => s.path.split('?')[0]).sort(), ['/Condition', '/DocumentReference', '/Observation', '/Patient/p4']);
    assert.ok(fhirSeen.every((s) => s.auth === 'Bearer tok-123'));
    for (const path of ['broken', 'hang']) {
      const r = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ prefetch: undefined, fhirServer: `${fhirUrl}/${path}`, fhirAuthorization: auth }), t());
      assert.equal(r.status, 412, path);
      assert.match(r.json.error.message, path === 'hang' ? /within 500 ms/ : /answered 500/);
    }
  });

  it('encounter-start reads the encounter-scoped templates from the FHIR server', async () => {
    fhirSeen.length = 0;
    const service = 'dxgraph-differential-encounter';
    const r = await postJson(
      `${app.url}/cds-services/${service}`,
      { hook: 'encounter-start', hookInstance: randomUUID(), fhirServer: fhirUrl, context: { userId: 'Practitioner/1', patientId: 'p4', encounterId: 'e6' } },
      bearer(jwt({ aud: aud(`/cds-services/${service}`) })),
    );
    assert.equal(r.status, 200, r.text);
    assert.ok(fhirSeen.some((s) => s.path === '/Observation?patient=p4&encounter=e6&_count=200'));
    assert.ok(fhirSeen.every((s) => s.auth === undefined), 'no fhirAuthorization: no bearer token sent');
  });

  it('an empty chart gives {cards: []} without a diagnose', async () => {
    const before = app.calls.length;
    const empty = { resourceType: 'Bundle', type: 'searchset', entry: [] };
    const r = await postJson(`${app.url}/cds-services/${SERVICE}`, hookRequest({ prefetch: { patient: p4[0], conditions: empty, observations: empty, notes: empty } }), bearer(jwt({ aud: aud() })));
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { cards: [] });
    assert.equal(app.calls.length, before);
  });
});

describe('CDS Hooks configuration (DXGRAPH_CDS_*)', () => {
  const jwk = JSON.stringify({ keys: [ec.publicKey.export({ format: 'jwk' })] });
  it('a JWKS needs issuers and the public URL; private and symmetric keys are refused at start-up', () => {
    assert.throws(() => loadConfig({ DXGRAPH_CDS_JWKS: jwk, DXGRAPH_CDS_PUBLIC_URL: PUBLIC }), (e: unknown) => e instanceof ConfigError && /DXGRAPH_CDS_ISSUERS/.test(e.message));
    assert.throws(() => loadConfig({ DXGRAPH_CDS_JWKS: jwk, DXGRAPH_CDS_ISSUERS: ISS }), /DXGRAPH_CDS_PUBLIC_URL/);
    assert.throws(() => loadConfig({ DXGRAPH_CDS_JWKS: JSON.stringify({ keys: [ec.privateKey.export({ format: 'jwk' })] }), DXGRAPH_CDS_ISSUERS: ISS, DXGRAPH_CDS_PUBLIC_URL: PUBLIC }), /private key/);
    assert.throws(() => loadConfig({ DXGRAPH_CDS_JWKS: '{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}', DXGRAPH_CDS_ISSUERS: ISS, DXGRAPH_CDS_PUBLIC_URL: PUBLIC }), /asymmetric/);
    assert.throws(() => loadConfig({ DXGRAPH_CDS_JWKS: '/nonexistent/jwks.json', DXGRAPH_CDS_ISSUERS: ISS, DXGRAPH_CDS_PUBLIC_URL: PUBLIC }), /cannot read/);
    const ok = loadConfig({ DXGRAPH_CDS_JWKS: jwk, DXGRAPH_CDS_ISSUERS: `${ISS}, https://other`, DXGRAPH_CDS_PUBLIC_URL: `${PUBLIC}/`, DXGRAPH_CDS_CANT_MISS: 'Sepsis,Meningitis' });
    assert.deepEqual([ok.cds!.jwt!.issuers, ok.cds!.publicUrl, ok.cds!.cantMiss], [[ISS, 'https://other'], PUBLIC, ['sepsis', 'meningitis']]);
    assert.equal(loadConfig({}).cds!.jwt, null);
    assert.equal(loadConfig({}).cds!.cantMissMin, 0.02);
    assert.equal(loadConfig({ DXGRAPH_CDS_CANT_MISS_MIN: '0.05' }).cds!.cantMissMin, 0.05);
    assert.throws(() => loadConfig({ DXGRAPH_CDS_CANT_MISS_MIN: '5' }), (e: unknown) => e instanceof ConfigError && /DXGRAPH_CDS_CANT_MISS_MIN/.test(e.message));
  });
});

describe('CDS Hooks replay guard', () => {
  it('refuses a jti seen before its exp, forgets it after, and refuses rather than forgets when full of live tokens', async () => {
    const { ReplayGuard } = await import('../../src/cds-hooks/replay-guard.js');
    const g = new ReplayGuard(2);
    assert.equal(g.accept(ISS, 'a', 100, 50), true);
    assert.equal(g.accept(ISS, 'a', 100, 60), false);
    assert.equal(g.accept('https://other', 'a', 100, 60), true, 'jti is per issuer');
    assert.equal(g.accept(ISS, 'b', 100, 60), false, 'full of live tokens');
    assert.equal(g.accept(ISS, 'b', 300, 150), true, 'expired ones pruned');
    assert.equal(g.accept(ISS, 'a', 300, 150), true, 'a after its exp');
  });
});
