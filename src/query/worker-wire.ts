/**
 * Messages between the diagnose pool and its workers (diagnose-pool.ts, diagnose-worker.ts),
 * and errors across the thread boundary: a structured clone drops an Error's class, so the
 * pool rebuilds the project's typed errors (the HTTP layer maps them: 400, 503, ...).
 */
import { ArtifactError, DxError, InputError, LlmOutputError, NotFoundError, ServiceUnavailableError } from '../errors.js';
import type { DiagnoseInput, DiagnoseResult } from './contracts.js';
import type { JsonRender } from './diagnose-json.js';

/** `render`: answer the `/v1/diagnose` body (diagnose-json.ts) instead of the result object. */
export type ToWorker = { type: 'run'; id: number; input: DiagnoseInput; render?: JsonRender } | { type: 'cancel'; id: number };
export type FromWorker =
  | { type: 'ready'; buildId: string | null }
  | { type: 'done'; id: number; result: DiagnoseResult }
  | { type: 'json'; id: number; json: string }
  | { type: 'fail'; id: number; error: WireError };

export interface WireError {
  kind: 'input' | 'unavailable' | 'not-found' | 'artifact' | 'llm-output' | 'dx' | 'other';
  code: string | null;
  message: string;
  field: string | null;
  /** The service (unavailable) or path (artifact). */
  detail: string | null;
}

export function toWire(e: unknown): WireError {
  const base = { code: e instanceof DxError ? e.code : null, message: e instanceof Error ? e.message : String(e), field: null, detail: null };
  if (e instanceof InputError) return { ...base, kind: 'input', field: e.field };
  if (e instanceof ServiceUnavailableError) return { ...base, kind: 'unavailable', detail: e.service };
  if (e instanceof NotFoundError) return { ...base, kind: 'not-found' };
  if (e instanceof ArtifactError) return { ...base, kind: 'artifact', detail: e.path };
  if (e instanceof LlmOutputError) return { ...base, kind: 'llm-output' };
  if (e instanceof DxError) return { ...base, kind: 'dx' };
  return { ...base, kind: 'other' };
}

export function fromWire(w: WireError): Error {
  switch (w.kind) {
    case 'input':
      return new InputError(w.message, w.field === null ? {} : { field: w.field });
    case 'unavailable':
      return new ServiceUnavailableError(w.detail ?? 'unknown', w.message);
    case 'not-found':
      return new NotFoundError(w.message);
    case 'artifact':
      return new ArtifactError(w.detail ?? '', w.message);
    case 'llm-output':
      return new LlmOutputError(w.message);
    case 'dx':
      return new DxError(w.code ?? 'DX', w.message);
    default:
      // A bug in the worker: the HTTP layer answers 500 and logs it (no request body).
      return new Error(`diagnose worker: ${w.message}`);
  }
}
