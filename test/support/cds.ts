import { strict as assert } from 'node:assert';
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';

/**
 * An EHR's side of CDS Hooks 2.0 for the integration tests: a key pair generated here, its JWKS
 * (what the server is configured with, DXGRAPH_CDS_JWKS) and the JWT it signs each call with
 * ("Trusting CDS Clients": asymmetric algorithm; iss, aud = the endpoint's URL, exp, iat, jti).
 */
export const CDS_ISSUER = 'https://ehr.example.org';
export const CDS_PUBLIC_URL = 'https://dx.example.org';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

export const ehrJwks = (): string => JSON.stringify({ keys: [{ ...keys.publicKey.export({ format: 'jwk' }), kid: 'ehr-1', alg: 'ES256' }] });

export function ehrJwt(aud: string): string {
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'ES256', typ: 'JWT', kid: 'ehr-1' })}.${b64({ iss: CDS_ISSUER, aud, iat: now, exp: now + 300, jti: randomUUID() })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: keys.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** The environment a `dxgraph serve` needs to trust this EHR. */
export const cdsServerEnv = (): Record<string, string> => ({ DXGRAPH_CDS_JWKS: ehrJwks(), DXGRAPH_CDS_ISSUERS: CDS_ISSUER, DXGRAPH_CDS_PUBLIC_URL: CDS_PUBLIC_URL });

/** POST a hook call as the EHR does: JSON body, its JWT for this service's URL. */
export async function callHook(url: string, service: string, request: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/cds-services/${service}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ehrJwt(`${CDS_PUBLIC_URL}/cds-services/${service}`)}` },
    body: JSON.stringify(request),
  });
  return { status: res.status, text: await res.text() };
}

/**
 * A card as the CDS Hooks 2.0 specification defines it (https://cds-hooks.hl7.org/2.0/): `uuid`
 * (optional), `summary` (required, < 140 characters), `indicator` (required: info | warning |
 * critical), `source` (required, `label` required), `suggestions` absent (so no
 * `selectionBehavior` needed), `links` (label, url, type absolute | smart required).
 */
export function assertSpecCard(card: Record<string, any>): void {
  assert.match(card.uuid, UUID);
  assert.ok(typeof card.summary === 'string' && card.summary.length > 0 && card.summary.length < 140);
  assert.ok(['info', 'warning', 'critical'].includes(card.indicator));
  assert.ok(typeof card.source?.label === 'string' && card.source.label.length > 0);
  assert.equal(card.suggestions, undefined, 'no suggestions, so no selectionBehavior needed');
  for (const l of card.links ?? []) {
    assert.ok(typeof l.label === 'string' && typeof l.url === 'string' && ['absolute', 'smart'].includes(l.type));
    assert.ok(l.url.startsWith(`${CDS_PUBLIC_URL}/`));
  }
}

/** The differential table of a card's detail: "| disease | p% |" rows, best first. */
export function cardDifferential(detail: string): { name: string; pct: number }[] {
  return [...detail.matchAll(/^\| (.+?) \| (\S+)% \|$/gm)].map((m) => ({ name: m[1]!, pct: m[2] === '<1' ? 0.5 : m[2] === '>99' ? 99.5 : Number(m[2]) }));
}
