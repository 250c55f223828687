import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { errorMessage, LlmOutputError, ServiceUnavailableError } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';
import { extractJson } from './json-extract.js';
import { ResponseCache } from './response-cache.js';

/**
 * Ask a chat model for JSON and get back a validated value or a typed failure, TypeChat
 * style: the reply is parsed (```json fences tolerated) and checked against a zod schema;
 * when that fails, the validation error goes back to the model for exactly ONE repair
 * attempt. A timeout or an unreachable endpoint is a failure value too, so callers can
 * fall back (evidence reasoner, statistical build path) instead of catching.
 */
export type LlmFailureKind = 'invalid' | 'timeout' | 'unavailable';

export interface LlmFailure {
  kind: LlmFailureKind;
  /** Safe to log and show: never contains prompt or reply text. */
  message: string;
  error: LlmOutputError | ServiceUnavailableError;
  /** Model calls made (0 on a cache hit, at most 2). */
  calls: number;
}

export interface CompleteJsonOptions<T> {
  chat: BaseChatModel;
  prompt: string;
  system?: string;
  schema: z.ZodType<T>;
  /** Deadline for the whole exchange, repair included. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Opt-in on-disk cache of validated replies. */
  cache?: ResponseCache;
  /** Model name for the cache key (default: the chat model's `model` field). */
  model?: string;
  /** Append the schema (as JSON Schema) to the prompt; default true. */
  includeSchema?: boolean;
}

export async function completeJson<T>(opts: CompleteJsonOptions<T>): Promise<Result<T, LlmFailure>> {
  const prompt = opts.includeSchema === false ? opts.prompt : withSchema(opts.prompt, opts.schema);
  const model = opts.model ?? modelName(opts.chat);
  const cacheKey = opts.cache ? ResponseCache.key(model, `${opts.system ?? ''}\u0000${prompt}`) : null;
  if (opts.cache && cacheKey) {
    const hit = await opts.cache.get(cacheKey);
    const checked = hit === null ? null : check(hit, opts.schema);
    if (checked?.ok) return ok(checked.value.value);
  }

  const signals = [opts.signal, opts.timeoutMs !== undefined ? AbortSignal.timeout(opts.timeoutMs) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  const messages: BaseMessage[] = [...(opts.system ? [new SystemMessage(opts.system)] : []), new HumanMessage(prompt)];

  let calls = 0;
  let lastProblem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    let reply: string;
    try {
      calls++;
      reply = (await opts.chat.invoke(messages, signal ? { signal } : {})).text;
    } catch (cause) {
      return err(callFailure(cause, { signal, timeoutMs: opts.timeoutMs, calls }));
    }
    const checked = check(reply, opts.schema);
    if (checked.ok) {
      if (opts.cache && cacheKey) await opts.cache.set(cacheKey, { model, response: JSON.stringify(checked.value.raw) });
      return ok(checked.value.value);
    }
    lastProblem = checked.error;
    messages.push(new AIMessage(reply), new HumanMessage(repairPrompt(checked.error)));
  }
  const error = new LlmOutputError(`LLM output still invalid after one repair attempt: ${lastProblem}`);
  return err({ kind: 'invalid', message: error.message, error, calls });
}

/** Parse + validate; the error text names paths and expected types, never reply values. */
function check<T>(reply: string, schema: z.ZodType<T>): Result<{ value: T; raw: unknown }, string> {
  const json = extractJson(reply);
  if (!json.ok) return err(json.error);
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) return err(`schema validation failed: ${z.prettifyError(parsed.error).slice(0, 1500)}`);
  return ok({ value: parsed.data, raw: json.value });
}

function withSchema(prompt: string, schema: z.ZodType): string {
  let jsonSchema: string;
  try {
    jsonSchema = JSON.stringify(z.toJSONSchema(schema, { io: 'input' }));
  } catch {
    return `${prompt}\n\nRespond with a single JSON value only, no prose.`; // schema not expressible (custom refinements)
  }
  return `${prompt}\n\nRespond with a single JSON value only, no prose, conforming to this JSON Schema:\n${jsonSchema}`;
}

function repairPrompt(problem: string): string {
  return `Your previous reply could not be used: ${problem}\nReply again with only the corrected JSON value, conforming to the schema above. No prose, no explanations.`;
}

function callFailure(cause: unknown, ctx: { signal: AbortSignal | undefined; timeoutMs: number | undefined; calls: number }): LlmFailure {
  const name = cause instanceof Error ? cause.name : '';
  if (ctx.signal?.aborted || /timeout/i.test(name)) {
    const why = ctx.signal?.reason instanceof Error && ctx.signal.reason.name === 'TimeoutError' ? `no answer within ${ctx.timeoutMs} ms` : 'request aborted or timed out';
    const error = new ServiceUnavailableError('llm', `LLM ${why}`, { cause });
    return { kind: 'timeout', message: error.message, error, calls: ctx.calls };
  }
  const error = new ServiceUnavailableError('llm', `LLM endpoint failed: ${errorMessage(cause).slice(0, 300)}`, { cause });
  return { kind: 'unavailable', message: error.message, error, calls: ctx.calls };
}

function modelName(chat: BaseChatModel): string {
  const m = (chat as unknown as { model?: unknown }).model;
  return typeof m === 'string' ? m : chat.getName();
}
