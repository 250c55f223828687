import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { DEFAULT_CANT_MISS, DEFAULT_CANT_MISS_MIN } from './cards.js';
import { parseJwks, type Jwks } from './jwt.js';

/**
 * CDS Hooks settings (docs/cds-hooks.md), read and validated once at start-up with the rest
 * of the configuration. With DXGRAPH_CDS_JWKS set, every /cds-services call needs the EHR's
 * JWT; without it the routes take the API key like /v1 (none configured: loopback only).
 */
export interface CdsConfig {
  /** null: no JWT auth configured. */
  jwt: { keys: Jwks; issuers: string[] } | null;
  /** The base URL EHRs call ("https://dx.example.org"): `aud` and the card's copilot link. */
  publicUrl: string | null;
  cantMiss: string[];
  /** Probability from which a can't-miss diagnosis in the top three makes the card a warning. */
  cantMissMin: number;
  fhirTimeoutMs: number;
  /** fhirServer base URLs the service may read; null = any the (authenticated) client names. */
  fhirServers: string[] | null;
}

const list = (s: string): string[] => s.split(',').map((x) => x.trim()).filter(Boolean);
const baseUrl = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));

const CdsEnv = z.object({
  DXGRAPH_CDS_JWKS: z.string().default(''),
  DXGRAPH_CDS_ISSUERS: z.string().default(''),
  DXGRAPH_CDS_PUBLIC_URL: z.union([z.literal(''), baseUrl]).default(''),
  DXGRAPH_CDS_CANT_MISS: z.string().default(''),
  DXGRAPH_CDS_CANT_MISS_MIN: z.coerce.number().min(0).max(1).default(DEFAULT_CANT_MISS_MIN),
  DXGRAPH_CDS_FHIR_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  DXGRAPH_CDS_FHIR_SERVERS: z.string().default(''),
});

export function loadCdsConfig(env: NodeJS.ProcessEnv): CdsConfig {
  const relevant = Object.fromEntries(Object.keys(CdsEnv.shape).flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
  const parsed = CdsEnv.safeParse(relevant);
  if (!parsed.success) {
    const name = String(parsed.error.issues[0]!.path[0]);
    throw new ConfigError(`${name}: ${parsed.error.issues[0]!.message}`);
  }
  const e = parsed.data;
  const issuers = list(e.DXGRAPH_CDS_ISSUERS);
  let jwt: CdsConfig['jwt'] = null;
  if (e.DXGRAPH_CDS_JWKS !== '') {
    if (issuers.length === 0) throw new ConfigError('DXGRAPH_CDS_ISSUERS: required with DXGRAPH_CDS_JWKS (the EHR issuers whose tokens are accepted)');
    if (e.DXGRAPH_CDS_PUBLIC_URL === '') throw new ConfigError('DXGRAPH_CDS_PUBLIC_URL: required with DXGRAPH_CDS_JWKS (a token\'s aud must be this URL + /cds-services/<id>)');
    const keys = parseJwks(readJwks(e.DXGRAPH_CDS_JWKS));
    if (!keys.ok) throw new ConfigError(`DXGRAPH_CDS_JWKS: ${keys.error}`);
    jwt = { keys: keys.value, issuers };
  }
  const cantMiss = list(e.DXGRAPH_CDS_CANT_MISS.toLowerCase());
  const servers = list(e.DXGRAPH_CDS_FHIR_SERVERS).map((s) => s.replace(/\/+$/, ''));
  return {
    jwt,
    publicUrl: e.DXGRAPH_CDS_PUBLIC_URL === '' ? null : e.DXGRAPH_CDS_PUBLIC_URL,
    cantMiss: cantMiss.length > 0 ? cantMiss : [...DEFAULT_CANT_MISS],
    cantMissMin: e.DXGRAPH_CDS_CANT_MISS_MIN,
    fhirTimeoutMs: e.DXGRAPH_CDS_FHIR_TIMEOUT_MS,
    fhirServers: servers.length > 0 ? servers : null,
  };
}

/** Inline JSON (starts with "{") or a file path. */
function readJwks(v: string): unknown {
  let text = v;
  if (!v.trimStart().startsWith('{')) {
    try {
      text = readFileSync(v, 'utf8');
    } catch (e) {
      throw new ConfigError(`DXGRAPH_CDS_JWKS: cannot read ${v}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError('DXGRAPH_CDS_JWKS: not valid JSON');
  }
}

export const DEFAULT_CDS: CdsConfig = { jwt: null, publicUrl: null, cantMiss: [...DEFAULT_CANT_MISS], cantMissMin: DEFAULT_CANT_MISS_MIN, fhirTimeoutMs: 5000, fhirServers: null };
