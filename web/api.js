// The dxgraph HTTP API, same origin. The API key lives only in this module's memory.
let apiKey = '';

export function setApiKey(key) {
  apiKey = key.trim();
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => null);
  if (!res.ok) {
    const msg = json?.error?.message ?? `HTTP ${res.status}`;
    throw new ApiError(res.status, res.status === 401 ? `${msg}. Enter an API key above.` : msg);
  }
  return json;
}

export const api = {
  diagnose: (req) => call('POST', '/v1/diagnose', req),
  startSession: (req) => call('POST', '/v1/sessions', req),
  answer: (sessionId, answers) => call('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/answers`, { answers }),
  diseases: () => call('GET', '/v1/kg/diseases'),
  // The LLM's report of a diagnose (issue 48): 202 {report: {status: "pending"}} until it is written.
  report: (href) => call('GET', href),
};
