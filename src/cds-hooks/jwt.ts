import { constants, createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { err, ok, type Result } from '../result.js';

/**
 * The CDS client's JWT (spec: "Trusting CDS Clients"), verified with node:crypto against the
 * configured JWKS: asymmetric algorithms only (an HS256 token signed with a public key as
 * its secret is the classic forgery), issuer on the allow-list, `aud` = the URL invoked,
 * `exp`, `iat` and `jti` required. `jku` in the header is never followed: the keys are the
 * configured ones, so a token cannot bring its own.
 */
type Alg = { kty: string; hash: string | null; pss?: boolean; p1363?: boolean; crv?: string };
const ALGS: Readonly<Record<string, Alg>> = {
  RS256: { kty: 'RSA', hash: 'sha256' }, RS384: { kty: 'RSA', hash: 'sha384' }, RS512: { kty: 'RSA', hash: 'sha512' },
  PS256: { kty: 'RSA', hash: 'sha256', pss: true }, PS384: { kty: 'RSA', hash: 'sha384', pss: true }, PS512: { kty: 'RSA', hash: 'sha512', pss: true },
  ES256: { kty: 'EC', hash: 'sha256', p1363: true, crv: 'P-256' }, ES384: { kty: 'EC', hash: 'sha384', p1363: true, crv: 'P-384' }, ES512: { kty: 'EC', hash: 'sha512', p1363: true, crv: 'P-521' },
  EdDSA: { kty: 'OKP', hash: null },
};
export const ASYMMETRIC_ALGS = Object.keys(ALGS);

export interface Jwk {
  kid: string | null;
  kty: string;
  alg: string | null;
  key: KeyObject;
}

/** A JWKS document ({"keys": [...]}) to public keys; private or symmetric keys are refused. */
export function parseJwks(doc: unknown): Result<Jwk[], string> {
  const keys = (doc as { keys?: unknown })?.keys;
  if (!Array.isArray(keys) || keys.length === 0) return err('must be a JWKS: {"keys": [ ... ]} with at least one key');
  const out: Jwk[] = [];
  for (const [i, k] of keys.entries()) {
    const jwk = k as JsonWebKey & { kid?: unknown; alg?: unknown };
    if (!['RSA', 'EC', 'OKP'].includes(String(jwk?.kty))) return err(`keys.${i}: kty ${JSON.stringify(jwk?.kty)} is not an asymmetric key type (RSA, EC, OKP)`);
    if ('d' in jwk) return err(`keys.${i}: a private key; configure the public key only`);
    if (jwk.alg !== undefined && !(String(jwk.alg) in ALGS)) return err(`keys.${i}: alg ${String(jwk.alg)} is not an asymmetric algorithm`);
    try {
      out.push({ kid: typeof jwk.kid === 'string' ? jwk.kid : null, kty: String(jwk.kty), alg: typeof jwk.alg === 'string' ? jwk.alg : null, key: createPublicKey({ key: jwk, format: 'jwk' }) });
    } catch (e) {
      return err(`keys.${i}: not a usable public key (${(e as Error).message})`);
    }
  }
  return ok(out);
}

export interface VerifyOptions {
  keys: readonly Jwk[];
  issuers: readonly string[];
  audience: string;
  nowS: number;
  /** Clock skew tolerated on exp / iat / nbf. */
  skewS?: number;
}

export interface Claims {
  iss: string;
  jti: string;
  sub?: string;
  [k: string]: unknown;
}

const b64json = (s: string): unknown => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));

export function verifyJwt(token: string, o: VerifyOptions): Result<Claims, string> {
  const parts = token.split('.');
  if (parts.length !== 3) return err('not a JWS compact token');
  let header: { alg?: unknown; kid?: unknown };
  let claims: Record<string, unknown>;
  try {
    header = b64json(parts[0]!) as typeof header;
    claims = b64json(parts[1]!) as typeof claims;
  } catch {
    return err('header or payload is not base64url JSON');
  }
  const alg = ALGS[String(header.alg)];
  if (alg === undefined) return err(`alg ${String(header.alg)} refused: asymmetric algorithms only (${ASYMMETRIC_ALGS.join(', ')})`);
  const candidates = o.keys.filter((k) => k.kty === alg.kty && (k.alg === null || k.alg === header.alg) && (header.kid === undefined || k.kid === header.kid));
  const data = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2]!, 'base64url');
  const good = candidates.some((k) => {
    try {
      return verify(alg.hash, data, { key: k.key, ...(alg.pss ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : {}), ...(alg.p1363 ? { dsaEncoding: 'ieee-p1363' as const } : {}) }, signature);
    } catch {
      return false;
    }
  });
  if (!good) return err(candidates.length === 0 ? `no configured key for alg ${String(header.alg)}${header.kid !== undefined ? ` and kid ${String(header.kid)}` : ''}` : 'signature does not verify');
  return checkClaims(claims, o);
}

function checkClaims(c: Record<string, unknown>, o: VerifyOptions): Result<Claims, string> {
  const skew = o.skewS ?? 30;
  if (typeof c.iss !== 'string' || !o.issuers.includes(c.iss)) return err(`iss ${JSON.stringify(c.iss)} is not an allowed issuer`);
  const aud = Array.isArray(c.aud) ? c.aud : [c.aud];
  if (!aud.includes(o.audience)) return err(`aud must be ${o.audience}`);
  if (typeof c.exp !== 'number') return err('exp is required');
  if (c.exp + skew <= o.nowS) return err('the token has expired');
  if (typeof c.iat !== 'number' || c.iat - skew > o.nowS) return err('iat is required and must not be in the future');
  if (typeof c.nbf === 'number' && c.nbf - skew > o.nowS) return err('the token is not valid yet (nbf)');
  if (typeof c.jti !== 'string' || c.jti === '') return err('jti is required');
  return ok(c as Claims);
}
