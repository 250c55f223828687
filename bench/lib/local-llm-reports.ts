import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { localModelOf, createChatModel } from '../../src/adapters/llm/chat-model.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { DEFAULT_LIMITS, DEFAULT_REPORTS, type Config } from '../../src/config.js';
import { createApp } from '../../src/http/app.js';
import { listen } from '../../src/http/listen.js';
import { createLogger } from '../../src/logger.js';
import { openQueryService } from '../../src/query/query-service.js';
import { openReports } from '../../src/reports/open-reports.js';
import { createReasoners } from '../../src/query/served-query.js';
import type { Vignette } from './free-text-set.js';

/**
 * Issue 48: the LLM's report apart from the differential, as a client sees it over HTTP with the
 * product's defaults. Each vignette: POST /v1/diagnose (reasoner "llm") must answer with the
 * evidence differential and a pending href; then the href is polled until the report settles.
 * Time to the first answer, time to the report, and how many reports were cut mid-sentence,
 * came back empty, or degraded (the LLM failed or ran out of time: the evidence differential).
 */
export interface ReportFigures {
  n: number;
  firstMs: { p50: number; max: number };
  reportMs: { p50: number; max: number };
  done: number;
  degraded: number;
  /** Narrative not ending a sentence (. ! ? and closing marks). */
  cut: number;
  emptyNarrative: number;
  /** Reports that still showed treatments, medications or a dose (a local model's must not). */
  advice: number;
  /** The model's work over the reports (calls, prompt tokens evaluated, reply tokens) and this process's CPU while they ran. */
  model: { calls: number; promptTokens: number; replyTokens: number; cpuSeconds: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const SENTENCE_END = /[.!?]["')\]]*$/;
const DOSE = /\b\d+(?:[.,]\d+)?\s*(?:mg|mcg|g|ml|units?|puffs?|tablets?)\b/i;

export async function runReports(config: Config, vignettes: readonly Vignette[], log: (s: string) => void): Promise<ReportFigures> {
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  const silent = createLogger({ level: 'silent' });
  const limits = config.limits ?? DEFAULT_LIMITS;
  const query = await openQueryService({ graph, dataDir: config.dataDir, embedder: createEmbedder(config), reasoners: await createReasoners(config, silent), limits: { maxFindings: limits.maxFindings, llmBudget: limits.llmBudget } });
  const local = localModelOf(createChatModel(config))!;
  await local.load();
  // CPU from here: the model runs in this process (one llama.cpp thread), so its time per report is what a deployment pays.
  const [u0, cpu0] = [local.usage(), process.cpuUsage()];
  const reports = await openReports({ store: { kind: 'memory' }, query, settings: config.reports ?? DEFAULT_REPORTS });
  const app = createApp({ query, reports, kg: { summary: async () => { throw new Error('unused'); }, diseases: async () => [], differences: async () => null }, readiness: async () => ({ neo4j: true, indexes: true }), config: { ...config, http: { ...config.http, rateLimit: { max: 0, windowMs: 60_000 } } }, apiKeys: [], logger: silent });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  const first: number[] = [], total: number[] = [];
  const f = { done: 0, degraded: 0, cut: 0, emptyNarrative: 0, advice: 0 };
  try {
    for (const v of vignettes) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/v1/diagnose`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: v.text, options: { reasoner: 'llm' } }) });
      const answer = (await res.json()) as { reasoner: string; report: { status: string; href: string | null } | null };
      first.push(performance.now() - t0);
      if (answer.report?.status !== 'pending' || !answer.report.href) throw new Error(`no pending report in the first answer: ${JSON.stringify(answer.report)}`);
      let body: any;
      for (;;) {
        const got = await fetch(`${server.url}${answer.report.href}`);
        body = await got.json();
        if (got.status !== 202) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      total.push(performance.now() - t0);
      if (body.report?.status === 'done') f.done++;
      if (body.degraded) f.degraded++;
      const narrative: string = body.report?.narrative ?? '';
      if (body.report?.status === 'done' && narrative === '') f.emptyNarrative++;
      if (narrative !== '' && !SENTENCE_END.test(narrative.trim())) f.cut++;
      if ((body.report?.treatments ?? []).length > 0 || (body.report?.medications ?? []).length > 0 || DOSE.test(narrative)) f.advice++;
      log(`reports: ${total.length}/${vignettes.length} first ${Math.round(first.at(-1)!)} ms, report ${Math.round(total.at(-1)!)} ms (${body.report?.status}${body.degraded ? ', degraded' : ''})`);
    }
  } finally {
    await server.close();
    await reports.close();
    await graph.close();
  }
  const [u, cpu] = [local.usage(), process.cpuUsage(cpu0)];
  const model = { calls: u.calls - u0.calls, promptTokens: u.inputTokens - u0.inputTokens, replyTokens: u.outputTokens - u0.outputTokens, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
  return { n: vignettes.length, model, firstMs: { p50: median(first), max: Math.max(...first) }, reportMs: { p50: median(total), max: Math.max(...total) }, ...f };
}
