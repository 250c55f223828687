import type { JSONWebKeySet, JWTPayload } from 'jose';
import { err, ok, type Result } from '../result.js';

type Jose = typeof import('jose');
/**
 * jose is imported with the first token to verify, not by every process that reads the
 * configuration (its import was ~0.1 s of CPU in each `dxgraph` command; docs/testing.md Round 9).
 */
let jose: Promise<Jose> | null = null;
const loadJose = (): Promise<Jose> => (jose ??= import('jose'));

/**
 * The CDS client's JWT (spec: "Trusting CDS Clients"), verified by `jose` against the configured
 * JWKS: asymmetric algorithms only (an HS256 token signed with a public key as its secret is the
 * classic forgery), issuer on the allow-list, `aud` = the URL invoked, `exp`, `iat` and `jti`
 * required. `jku` in the header is never followed: the keys are the configured ones (a local key
 * set), so a token cannot bring its own.
 */
export const ASYMMETRIC_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** The configured public keys, checked; jose's key set over them is made for the first token (keySetOf). */
export interface Jwks {
  document: JSONWebKeySet;
  size: number;
}

const keySets = new WeakMap<Jwks, ReturnType<Jose['createLocalJWKSet']>>();

async function keySetOf(jwks: Jwks): Promise<ReturnType<Jose['createLocalJWKSet']>> {
  let set = keySets.get(jwks);
  if (!set) {
    set = (await loadJose()).createLocalJWKSet(jwks.document);
    keySets.set(jwks, set);
  }
  return set;
}

/** A JWKS document ({"keys": [...]}) to a key set; private, symmetric or malformed keys are refused here, at start-up. */
export function parseJwks(doc: unknown): Result<Jwks, string> {
  const keys = (doc as { keys?: unknown })?.keys;
  if (!Array.isArray(keys) || keys.length === 0) return err('must be a JWKS: {"keys": [ ... ]} with at least one key');
  for (const [i, k] of keys.entries()) {
    const jwk = k as { kty?: unknown; alg?: unknown };
    if (!['RSA', 'EC', 'OKP'].includes(String(jwk?.kty))) return err(`keys.${i}: kty ${JSON.stringify(jwk?.kty)} is not an asymmetric key type (RSA, EC, OKP)`);
    if ('d' in (jwk as object)) return err(`keys.${i}: a private key; configure the public key only`);
    if (jwk.alg !== undefined && !ASYMMETRIC_ALGS.includes(String(jwk.alg))) return err(`keys.${i}: alg ${String(jwk.alg)} is not an asymmetric algorithm`);
  }
  // Every key is an object with an asymmetric kty (checked above): all createLocalJWKSet asks of a key set.
  return ok({ document: { keys } as JSONWebKeySet, size: keys.length });
}

export interface VerifyOptions {
  keys: Jwks;
  issuers: readonly string[];
  audience: string;
  nowS: number;
  /** Clock skew tolerated on exp / iat / nbf. */
  skewS?: number;
}

export interface Claims extends JWTPayload {
  iss: string;
  jti: string;
  exp: number;
}

export async function verifyJwt(token: string, o: VerifyOptions): Promise<Result<Claims, string>> {
  const skew = o.skewS ?? 30;
  const { jwtVerify, errors } = await loadJose();
  try {
    // In the try: a key jose refuses when the set is first made is a refused token, not a 500.
    const { payload } = await jwtVerify(token, await keySetOf(o.keys), {
      algorithms: ASYMMETRIC_ALGS, issuer: [...o.issuers], audience: o.audience, requiredClaims: ['exp', 'iat', 'jti'],
      clockTolerance: skew, currentDate: new Date(o.nowS * 1000),
    });
    // jose checks iat's type only; a token issued in the future is refused here.
    if (typeof payload.iat !== 'number' || payload.iat - skew > o.nowS) return err('iat must not be in the future');
    if (typeof payload.jti !== 'string' || payload.jti === '') return err('jti is required');
    return ok(payload as Claims);
  } catch (e) {
    return err(reason(e, errors));
  }
}

/** jose's error, in the words a CDS client's developer needs (never the token itself). */
function reason(e: unknown, errors: Jose['errors']): string {
  if (e instanceof errors.JWTExpired) return 'the token has expired';
  if (e instanceof errors.JWTClaimValidationFailed) return e.reason === 'missing' ? `${e.claim} is required` : `${e.claim} refused: ${e.message}`;
  if (e instanceof errors.JOSEAlgNotAllowed) return `alg refused: asymmetric algorithms only (${ASYMMETRIC_ALGS.join(', ')})`;
  if (e instanceof errors.JWKSNoMatchingKey) return 'no configured key matches the token (alg / kid)';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'signature does not verify';
  if (e instanceof errors.JOSEError) return e.message;
  return 'not a valid JWT';
}
