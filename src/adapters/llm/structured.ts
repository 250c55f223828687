import type { JsonSchema7Type } from '@langchain/core/utils/json_schema';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { LlmOutputError, ServiceUnavailableError } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';
import type { BudgetRefusal, LlmBudget } from './budget.js';
import { describeCallFailure } from './failure-category.js';
import { extractJson } from './json-extract.js';
import { ResponseCache } from './response-cache.js';

/**
 * LangChain's message classes (with langsmith, ~150 modules and ~0.3 s of CPU) are loaded on the
 * first call that asks a model: the pipeline, the gate and the reasoners import this file, and a
 * build, eval or server without an LLM never calls one. The messages only go to the chat model,
 * and LangChain recognises them by a global symbol, not by class identity, so the copy a
 * tsx-compiled test may load beside this one is read the same.
 */
const messageClasses = () => import('@langchain/core/messages');

/**
 * Ask a chat model for JSON and get back a validated value or a typed failure, TypeChat
 * style: the reply is parsed (```json fences tolerated) and checked against a zod schema;
 * when that fails, the validation error goes back to the model for exactly ONE repair
 * attempt. A timeout or an unreachable endpoint is a failure value too, so callers can
 * fall back (evidence reasoner, statistical build path) instead of catching.
 */
export type LlmFailureKind = 'invalid' | 'timeout' | 'unavailable' | 'budget';

export interface LlmFailure {
  kind: LlmFailureKind;
  /**
   * Safe to log and show: a category and the HTTP status only, never the endpoint's error
   * text, the reply or a JSON.parse message (an endpoint may quote the prompt: patient text).
   */
  message: string;
  /** The endpoint's HTTP status when it answered with an error, else null. */
  status: number | null;
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
  /** The request's shared LLM budget (budget.ts): each call claims one; its deadline caps the timeout. */
  budget?: LlmBudget | null;
  /** Opt-in on-disk cache of validated replies. */
  cache?: ResponseCache;
  /** Model name for the cache key (default: the chat model's `model` field). */
  model?: string;
  /** Append the schema (as JSON Schema) to the prompt; default true. */
  includeSchema?: boolean;
}

export async function completeJson<T>(opts: CompleteJsonOptions<T>): Promise<Result<T, LlmFailure>> {
  const jsonSchema = toJsonSchema(opts.schema);
  // A model whose grammar writes only this shape needs no JSON Schema in its prompt: on a CPU those
  // 100-300 tokens were an eighth of a local diagnose's prompt (docs/testing.md, round 7).
  const schemaShown = jsonSchema !== null && !enforcesSchema(opts.chat, jsonSchema);
  const prompt = opts.includeSchema === false ? opts.prompt : withSchema(opts.prompt, schemaShown ? jsonSchema : null);
  const model = opts.model ?? modelName(opts.chat);
  const cacheKey = opts.cache ? ResponseCache.key(model, `${opts.system ?? ''}\u0000${prompt}`) : null;
  if (opts.cache && cacheKey) {
    const hit = await opts.cache.get(cacheKey);
    const checked = hit === null ? null : check(hit, opts.schema);
    if (checked?.ok) return ok(checked.value.value);
  }

  // Loaded before the deadline starts: the first call's timeout is the model's, not the module loader's.
  const { AIMessage, HumanMessage, SystemMessage } = await messageClasses();
  const signals = [opts.signal, opts.budget?.signal, opts.timeoutMs !== undefined ? AbortSignal.timeout(opts.timeoutMs) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  const messages: BaseMessage[] = [...(opts.system ? [new SystemMessage(opts.system)] : []), new HumanMessage(prompt)];
  // LangChain's call option for "this call wants structured output": an in-process model turns
  // it into a generation grammar (local-chat-model.ts); ChatOpenAI only traces it.
  const callOptions = {
    ...(signal ? { signal } : {}),
    ...(jsonSchema ? { ls_structured_output_format: { kwargs: { method: 'json_schema' }, schema: jsonSchema as JsonSchema7Type } } : {}),
  };

  let calls = 0;
  let lastProblem = '';
  let lastCategory = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const claim = opts.budget ? opts.budget.claim() : null;
    if (claim && !claim.ok) return err(budgetFailure(claim.error, calls));
    let reply: string;
    try {
      calls++;
      reply = (await opts.chat.invoke(messages, callOptions)).text;
    } catch (cause) {
      return err(callFailure(cause, { signal, timeoutMs: opts.timeoutMs, calls, budget: opts.budget ?? null }));
    }
    const checked = check(reply, opts.schema);
    if (checked.ok) {
      if (opts.cache && cacheKey) await opts.cache.set(cacheKey, { model, response: JSON.stringify(checked.value.raw) });
      return ok(checked.value.value);
    }
    lastProblem = checked.error.detail;
    lastCategory = checked.error.category;
    messages.push(new AIMessage(reply), new HumanMessage(repairPrompt(lastProblem, schemaShown && opts.includeSchema !== false)));
  }
  // The detail (zod paths, key names the model invented) went back to the model only: keys
  // and messages can carry reply text, so the message here is the category alone.
  const error = new LlmOutputError(`LLM output still invalid after one repair attempt (${lastCategory})`);
  return err({ kind: 'invalid', message: error.message, error, calls, status: null });
}

interface CheckProblem {
  /** Loggable: 'reply not JSON' or 'schema mismatch'. */
  category: string;
  /** For the repair prompt only: zod's paths and expectations. */
  detail: string;
}

/** Parse + validate. */
function check<T>(reply: string, schema: z.ZodType<T>): Result<{ value: T; raw: unknown }, CheckProblem> {
  const json = extractJson(reply);
  if (!json.ok) return err({ category: 'reply not JSON', detail: json.error });
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) return err({ category: 'schema mismatch', detail: `schema validation failed: ${z.prettifyError(parsed.error).slice(0, 1500)}` });
  return ok({ value: parsed.data, raw: json.value });
}

/** The schema as JSON Schema, or null when zod cannot express it (custom refinements). */
function toJsonSchema(schema: z.ZodType): Record<string, unknown> | null {
  try {
    return z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function withSchema(prompt: string, jsonSchema: Record<string, unknown> | null): string {
  if (!jsonSchema) return `${prompt}\n\nRespond with a single JSON value only, no prose.`;
  return `${prompt}\n\nRespond with a single JSON value only, no prose, conforming to this JSON Schema:\n${JSON.stringify(jsonSchema)}`;
}

function repairPrompt(problem: string, schemaShown: boolean): string {
  return `Your previous reply could not be used: ${problem}\nReply again with only the corrected JSON value${schemaShown ? ', conforming to the schema above' : ''}. No prose, no explanations.`;
}

/** Whether the chat model constrains its reply to this JSON Schema itself (an in-process model's grammar, local-chat-model.ts). */
function enforcesSchema(chat: BaseChatModel, jsonSchema: Record<string, unknown>): boolean {
  const enforces = (chat as { enforcesJsonSchema?: (schema: unknown) => boolean }).enforcesJsonSchema;
  return typeof enforces === 'function' && enforces.call(chat, jsonSchema);
}

// No `cause` on these errors: the endpoint's error object holds its message (which may
// quote the prompt), and a logger that serializes causes would print it.
function callFailure(cause: unknown, ctx: { signal: AbortSignal | undefined; timeoutMs: number | undefined; calls: number; budget: LlmBudget | null }): LlmFailure {
  const name = cause instanceof Error ? cause.name : '';
  if (ctx.signal?.aborted || /timeout/i.test(name)) {
    const budgetWhy = ctx.budget?.refusal() ?? null;
    if (budgetWhy) return budgetFailure(budgetWhy, ctx.calls);
    const why = ctx.signal?.reason instanceof Error && ctx.signal.reason.name === 'TimeoutError' ? `no answer within ${ctx.timeoutMs} ms` : 'request aborted or timed out';
    const error = new ServiceUnavailableError('llm', `LLM ${why}`);
    return { kind: 'timeout', message: error.message, error, calls: ctx.calls, status: null };
  }
  const { category, status } = describeCallFailure(cause);
  const error = new ServiceUnavailableError('llm', `LLM endpoint failed: ${category}${status !== null ? ` (HTTP ${status})` : ''}`);
  return { kind: 'unavailable', message: error.message, error, calls: ctx.calls, status };
}

const BUDGET_WHY: Record<BudgetRefusal, string> = {
  aborted: 'the request was abandoned by its client',
  time: "the request's LLM time budget is spent",
  calls: "the request's LLM call budget is spent",
};

function budgetFailure(why: BudgetRefusal, calls: number): LlmFailure {
  const error = new ServiceUnavailableError('llm', `LLM not asked: ${BUDGET_WHY[why]}`);
  return { kind: 'budget', message: error.message, error, calls, status: null };
}

function modelName(chat: BaseChatModel): string {
  const m = (chat as unknown as { model?: unknown }).model;
  return typeof m === 'string' ? m : chat.getName();
}
