import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real local OpenAI-compatible HTTP server (127.0.0.1, port 0) with SCRIPTED replies,
 * for testing the LLM paths without any outside service.
 *
 *   const fake = await startFakeOpenAI({ replies: [{ json: { ok: true } }, { content: 'not json' }] });
 *   // point ChatOpenAI / OpenAIEmbeddings at fake.baseUrl (it ends in /v1), any api key
 *   fake.requests          // every request received, in order: { path, body, at }
 *   fake.chatRequests()    // only POST /v1/chat/completions bodies
 *   fake.push(reply)       // append replies later
 *   await fake.close()
 *
 * POST /v1/chat/completions takes the next reply from the queue:
 *   { content: '...' }     200, assistant message with that text
 *   { json: value }        200, content = JSON.stringify(value)
 *   { status: 500 }        that HTTP status with an OpenAI-style error body
 *   { delayMs: n, ... }    wait n ms first (use with a client timeout); combinable
 *   (req) => reply         computed from the request
 * An empty queue answers 500 "no scripted reply left" (or `fallback`, if given).
 *
 * POST /v1/embeddings returns deterministic L2-normalised vectors (sha256 of each input),
 * `embeddingDim` long (default 16), as floats or base64 per `encoding_format`.
 */
export interface FakeReplySpec {
  content?: string;
  json?: unknown;
  status?: number;
  delayMs?: number;
}
export type FakeReply = FakeReplySpec | ((req: RecordedRequest) => FakeReplySpec);

export interface RecordedRequest {
  path: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary JSON sent by the client
  at: number;
}

export interface FakeOpenAIOptions {
  replies?: FakeReply[];
  fallback?: FakeReply;
  embeddingDim?: number;
}

export interface FakeOpenAI {
  baseUrl: string;
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  push(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

export async function startFakeOpenAI(opts: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue: FakeReply[] = [...(opts.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const dim = opts.embeddingDim ?? 16;

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => send(res, 500, { error: { message: String(e) } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return send(res, 400, { error: { message: 'request body is not JSON' } });
    }
    const recorded: RecordedRequest = { path, body, at: Date.now() };
    requests.push(recorded);

    if (req.method === 'POST' && path.endsWith('/chat/completions')) {
      const next = queue.shift() ?? opts.fallback;
      if (next === undefined) return send(res, 500, { error: { message: 'fake-openai: no scripted reply left' } });
      const spec = typeof next === 'function' ? next(recorded) : next;
      if (spec.delayMs) {
        const aborted = await sleepUnlessClosed(spec.delayMs, res);
        if (aborted) return;
      }
      if (spec.status && spec.status >= 400) return send(res, spec.status, { error: { message: `scripted HTTP ${spec.status}`, type: 'server_error' } });
      const content = spec.json !== undefined ? JSON.stringify(spec.json) : (spec.content ?? '');
      return send(res, 200, chatCompletion((body as { model?: string })?.model ?? 'fake', content));
    }
    if (req.method === 'POST' && path.endsWith('/embeddings')) {
      const b = body as { input: unknown; model?: string; encoding_format?: string };
      const inputs = Array.isArray(b.input) && typeof b.input[0] !== 'number' ? (b.input as unknown[]) : [b.input];
      const data = inputs.map((input, index) => {
        const v = fakeEmbedding(typeof input === 'string' ? input : JSON.stringify(input), dim);
        const embedding = b.encoding_format === 'base64' ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : Array.from(v);
        return { object: 'embedding', index, embedding };
      });
      return send(res, 200, { object: 'list', data, model: b.model ?? 'fake-embed', usage: { prompt_tokens: 1, total_tokens: 1 } });
    }
    send(res, 404, { error: { message: `fake-openai: no route ${req.method} ${path}` } });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    push: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // delayed replies must not keep the test process alive
        server.close(() => resolve());
      }),
  };
}

/** Deterministic unit vector for a text: same text, same vector; different texts, unrelated vectors. */
export function fakeEmbedding(text: string, dim: number): Float32Array {
  const v = new Float32Array(dim);
  let block = Buffer.alloc(0);
  for (let i = 0; i < dim; i++) {
    if (i % 8 === 0) block = createHash('sha256').update(`${text}#${i / 8}`).digest();
    v[i] = block.readInt32LE((i % 8) * 4) / 2 ** 31;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

function chatCompletion(model: string, content: string) {
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Resolves true when the client went away during the delay (it timed out: nothing to answer). */
function sleepUnlessClosed(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    res.on('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
