import { Router, type Request, type RequestHandler } from 'express';
import { DEFAULT_LIMITS } from '../../config.js';
import { DEFAULT_CDS, type CdsConfig } from '../../cds-hooks/cds-config.js';
import { verifyJwt } from '../../cds-hooks/jwt.js';
import { memoryJtiClaims, type JtiClaims } from '../../cds-hooks/jti-claims.js';
import { runHook, type HookDeps } from '../../cds-hooks/run-hook.js';
import { CDS_SERVICES, serviceById } from '../../cds-hooks/services.js';
import { hookRequestSchema } from '../../cds-hooks/spec.js';
import { defaultNotePreparer } from '../../clinical-text/prepare-note.js';
import { InputError, NotFoundError } from '../../errors.js';
import { requireApiKey } from '../access.js';
import type { AppDeps } from '../ports.js';

/**
 * CDS Hooks 2.0 (docs/cds-hooks.md): `GET /cds-services` (discovery) and
 * `POST /cds-services/{id}` (a hook call), thin over src/cds-hooks/run-hook.ts. Auth is the
 * EHR's JWT when a JWKS is configured, else the API key of /v1.
 */
export function cdsHooksRoutes(deps: AppDeps, admission: RequestHandler): Router {
  const cds: CdsConfig = deps.config.cds ?? DEFAULT_CDS;
  const auth = cds.jwt === null ? requireApiKey(deps.apiKeys) : jwtAuth(cds, deps.jtiClaims ?? memoryJtiClaims());
  const hookDeps = (req: Request): HookDeps => ({
    query: deps.query,
    prepareNote: notePreparer(),
    cards: {
      cantMiss: cds.cantMiss,
      cantMissMin: cds.cantMissMin,
      // The link is what the clinician opens: the configured public URL, else this request's origin.
      copilotUrl: `${cds.publicUrl ?? `${req.protocol}://${req.get('host')}`}/`,
      sourceLabel: 'dxgraph differential diagnosis',
      shown: 5,
      questions: 3,
    },
    fhir: { timeoutMs: cds.fhirTimeoutMs, allowedServers: cds.fhirServers },
    maxTextChars: deps.config.http.maxTextChars,
    maxFindings: (deps.config.limits ?? DEFAULT_LIMITS).maxFindings,
    dropDemographics: deps.config.privacy.dropDemographics,
    today: () => new Date().toISOString().slice(0, 10),
  });

  const router = Router();
  router.get('/cds-services', auth, (_req, res) => {
    res.json({ services: CDS_SERVICES });
  });
  router.post('/cds-services/:id', auth, admission, async (req, res) => {
    const service = serviceById(String(req.params.id));
    if (service === undefined) throw new NotFoundError(`no CDS service ${String(req.params.id)} (GET /cds-services lists them)`);
    if (req.body === undefined) throw new InputError('body: send a JSON object with Content-Type: application/json', { field: 'body' });
    const body = hookRequestSchema.parse(req.body);
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const out = await runHook(body, service, hookDeps(req), gone.signal);
    if (out.ok) {
      res.json(out.value);
      return;
    }
    const status = out.error.kind === 'precondition' ? 412 : 400;
    res.status(status).json({ error: { code: status === 412 ? 'PRECONDITION_FAILED' : 'INPUT', message: out.error.message, field: null } });
  });
  return router;
}

/** The EHR's JWT: `aud` must be exactly the URL invoked under the configured public URL. */
function jwtAuth(cds: CdsConfig, replays: JtiClaims): RequestHandler {
  const { jwt, publicUrl } = cds;
  return async (req, res, next) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const fail = (message: string) => res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: { code: 'UNAUTHORIZED', message, field: null } });
    if (m === null) return fail('Authorization: Bearer <JWT> is required (CDS Hooks: Trusting CDS Clients)');
    const audience = `${publicUrl}${req.baseUrl}${req.path}`.replace(/\/+$/, '');
    const nowS = Math.floor(Date.now() / 1000);
    const v = await verifyJwt(m[1]!, { keys: jwt!.keys, issuers: jwt!.issuers, audience, nowS });
    if (!v.ok) return fail(`JWT refused: ${v.error}`);
    let fresh: boolean;
    try {
      fresh = await replays.claim(v.value.iss, v.value.jti, Number(v.value.exp), nowS);
    } catch (e) {
      next(e); // the shared store unreachable: the error handler's 503, never an unchecked pass
      return;
    }
    if (!fresh) return fail('JWT refused: this jti was already used (a token is good for one call)');
    next();
  };
}

/** The note preparer's rule files, loaded on the first note and kept; a failed load is retried next time. */
let preparer: Promise<(text: string) => string> | null = null;
function notePreparer(): () => Promise<(text: string) => string> {
  return () => {
    preparer ??= defaultNotePreparer().then(
      (p) => (text: string) => p(text).text,
      (e: unknown) => {
        preparer = null;
        throw e;
      },
    );
    return preparer;
  };
}
