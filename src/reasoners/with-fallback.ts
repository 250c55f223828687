import { DxError, ServiceUnavailableError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Reasoner, ReasonerContext, ReasonerOutput } from './reasoner.js';

/**
 * Keeps the LLM path from ever failing a query: when the primary reasoner throws an
 * expected failure (LLM down, timeout, output invalid after repair) or misses the
 * deadline, the fallback (the evidence reasoner) answers and the result says
 * `degraded: true`. Bugs (non-DxError) still propagate. The deadline is enforced here
 * as well as in the adapter, so a hung client cannot hold a request past `timeoutMs`.
 */
export interface WithFallbackOptions {
  timeoutMs: number;
  logger?: Logger;
}

export class WithFallback implements Reasoner {
  constructor(
    private readonly primary: Reasoner,
    private readonly fallback: Reasoner,
    private readonly opts: WithFallbackOptions,
  ) {}

  get name(): string {
    return this.primary.name;
  }

  async reason(ctx: ReasonerContext): Promise<ReasonerOutput> {
    const abort = new AbortController();
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, abort.signal]) : abort.signal;
    let timer: NodeJS.Timeout | undefined;
    // The request's budget may leave less than the configured timeout (the filter spent some).
    const waitMs = Math.min(this.opts.timeoutMs, ctx.llmBudget?.remainingMs() ?? Infinity);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new ServiceUnavailableError('llm', `${this.primary.name} reasoner gave no answer within ${Math.round(waitMs)} ms`));
      }, waitMs + 50); // the adapter's own timeout normally fires first
    });
    try {
      return await Promise.race([this.primary.reason({ ...ctx, signal }), deadline]);
    } catch (e) {
      if (!(e instanceof DxError)) throw e;
      // The message is safe to log: the adapter writes a category and an HTTP status only.
      this.opts.logger?.warn({ reasoner: this.primary.name, code: e.code, reason: e.message }, 'reasoner degraded to fallback');
      const out = await this.fallback.reason(ctx);
      return { ...out, degraded: true };
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }
}
