/**
 * What went wrong with an LLM call, as a fixed category and the HTTP status, read from the
 * error's type fields only. The endpoint's error text is never read: an OpenAI-compatible
 * server may quote the request (the patient's text) in it, and a non-JSON reply ends up
 * quoted in the client's parse error (issue 18).
 */
export type CallFailureCategory = 'http error' | 'rate limited' | 'auth refused' | 'connection failed' | 'bad response' | 'local model failed' | 'client error';

export interface CallFailureDescription {
  category: CallFailureCategory;
  status: number | null;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

export function describeCallFailure(cause: unknown): CallFailureDescription {
  const status = httpStatusOf(cause);
  if (status !== null) {
    if (status === 429) return { category: 'rate limited', status };
    if (status === 401 || status === 403) return { category: 'auth refused', status };
    return { category: 'http error', status };
  }
  if (chainHas(cause, (e) => CONNECTION_CODES.has(String(e.code ?? '')) || e.name === 'APIConnectionError')) return { category: 'connection failed', status: null };
  if (chainHas(cause, (e) => e.name === 'SyntaxError')) return { category: 'bad response', status: null };
  // The in-process model (local-chat-model.ts, llama-engine.ts): runtime errors, a context overflow, a model that would not load.
  if (chainHas(cause, (e) => e.name === 'LocalModelError' || e.name === 'ConfigError')) return { category: 'local model failed', status: null };
  return { category: 'client error', status: null };
}

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  status?: unknown;
  cause?: unknown;
  response?: { status?: unknown };
}

function httpStatusOf(cause: unknown): number | null {
  let found: number | null = null;
  chainHas(cause, (e) => {
    const s = typeof e.status === 'number' ? e.status : typeof e.response?.status === 'number' ? e.response.status : null;
    if (s !== null && s >= 100 && s <= 599) found = s;
    return found !== null;
  });
  return found;
}

/** Walks the error and its causes (bounded: cause chains can be cyclic). */
function chainHas(start: unknown, test: (e: ErrorLike) => boolean): boolean {
  let e: unknown = start;
  for (let depth = 0; depth < 5 && e !== null && typeof e === 'object'; depth++) {
    if (test(e as ErrorLike)) return true;
    e = (e as ErrorLike).cause;
  }
  return false;
}
