import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { FaissVectorIndex } from '../../src/adapters/faiss/vector-index.js';
import { createChatModel, localModelOf } from '../../src/adapters/llm/chat-model.js';
import type { LocalUsage } from '../../src/adapters/llm/local-chat-model.js';
import { ResponseCache } from '../../src/adapters/llm/response-cache.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { paramsFromFlags } from '../../src/cli/build-command.js';
import { DEFAULT_LIMITS, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { diagnosisToDisease } from '../../src/query/evaluate-ask.js';
import { openQueryService, textInput } from '../../src/query/query-service.js';
import { createReasoners } from '../../src/query/served-query.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { runBuild } from '../../kg-build/pipeline.js';
import type { Vignette } from './free-text-set.js';

/**
 * The local-LLM bench (issue 27): the build's LLM stages on a few diseases of the DDXPlus sample,
 * then free-text vignettes through the LLM reasoner and the evidence reasoner of one KG built
 * from every shipped record (no LLM stages: on CPU those take ~10 s a call, two calls per disease).
 * Figures, not goals: a 135M model is here to prove the path, not the medicine.
 */
export interface StageFigures {
  seconds: number | null;
  error: string | null;
  diseases: number;
  calls: number;
  stageMs: Record<string, number>;
  msPerCall: number | null;
}

export interface VignetteFigures {
  n: number;
  fallbackRate: number;
  /** Answered by the LLM and its first diagnosis is not one of the diseases of the differences KG it was given. */
  outsideCandidatesRate: number | null;
  top1: { llm: number; evidence: number };
  diagnoseMs: { p50: number; max: number };
  reasonMs: { p50: number };
}

const sub = (a: LocalUsage, b: LocalUsage): LocalUsage => ({
  calls: a.calls - b.calls, inputTokens: a.inputTokens - b.inputTokens, outputTokens: a.outputTokens - b.outputTokens, generationMs: a.generationMs - b.generationMs, promptMs: a.promptMs - b.promptMs, truncated: a.truncated - b.truncated,
});

const wipe = async (graph: GraphStore) => {
  while (Number((await graph.write('bench/wipe', { limit: 20_000 }))[0]?.deleted ?? 0) > 0);
};

/** `dxgraph build --hierarchy llm` (topics, augmented features, key differences) on the records of `diseases`. */
export async function buildWithLlm(config: Config, ddxplusDir: string, diseases: ReadonlySet<string>): Promise<StageFigures & { usage: LocalUsage }> {
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  const chat = createChatModel(config);
  const local = localModelOf(chat)!;
  const u0 = local.usage();
  const t0 = performance.now();
  const source = await openSource(parseSourceSpec(`ddxplus:${ddxplusDir}`), { strict: false });
  let timings: Record<string, number> = {};
  let error: string | null = null;
  try {
    await wipe(graph);
    const params = { ...paramsFromFlags({ source: [`ddxplus:${ddxplusDir}`], hierarchy: 'llm', subcategories: 'auto', categories: 'auto', batchSize: 5000 }), gate: { maxExamples: 0 } };
    const out = await runBuild(
      { source, dataDir: config.dataDir, params, include: (r) => diseases.has(r.diagnosis) },
      { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: { chat, cache: new ResponseCache(`${config.dataDir}/llm-cache`), timeoutMs: config.llm.timeoutMs, concurrency: 1 } },
    );
    timings = out.timings;
  } catch (e) {
    error = e instanceof Error ? `${e.name}: ${e.message}` : String(e); // reported, not hidden: a small model may fail a stage
  } finally {
    await source.close();
    await graph.close();
  }
  const usage = sub(local.usage(), u0);
  const stageMs = Object.fromEntries(['hierarchy', 'augment', 'keyDifferences'].filter((k) => k in timings).map((k) => [k, timings[k]!]));
  return { seconds: error ? null : (performance.now() - t0) / 1000, error, diseases: diseases.size, calls: usage.calls, stageMs, msPerCall: usage.calls > 0 ? usage.generationMs / usage.calls : null, usage };
}

/** The full sample without LLM stages (as `dxgraph build` with no LLM configured). */
export async function buildPlain(config: Config, ddxplusDir: string): Promise<number> {
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  const t0 = performance.now();
  const source = await openSource(parseSourceSpec(`ddxplus:${ddxplusDir}`), { strict: false });
  try {
    await wipe(graph);
    const params = paramsFromFlags({ source: [`ddxplus:${ddxplusDir}`], hierarchy: 'auto', subcategories: 'auto', categories: 'auto', batchSize: 5000 });
    await runBuild({ source, dataDir: config.dataDir, params }, { graph, embedder: createEmbedder(config), indexFactory: FaissVectorIndex, llm: null });
  } finally {
    await source.close();
    await graph.close();
  }
  return (performance.now() - t0) / 1000;
}

/** Each vignette through the evidence reasoner and the LLM reasoner (with its fallback), one at a time. */
export async function runVignettes(config: Config, vignettes: readonly Vignette[], log: (s: string) => void): Promise<VignetteFigures & { usage: LocalUsage }> {
  const graph = new GraphStore(config.neo4j);
  await graph.connect();
  try {
    const reasoners = await createReasoners(config, createLogger({ level: 'silent' }));
    const limits = config.limits ?? DEFAULT_LIMITS;
    // The request's LLM budget from the config (the bench raises it: a CPU model needs more than the 45 s default).
    const service = await openQueryService({ graph, dataDir: config.dataDir, embedder: createEmbedder(config), reasoners, limits: { maxFindings: limits.maxFindings, llmBudget: limits.llmBudget } });
    const goldOf = diagnosisToDisease(service.snapshot);
    const local = localModelOf(createChatModel(config))!;
    await local.load();
    const u0 = local.usage();
    let fallbacks = 0, outside = 0, answered = 0, llmHits = 0, evHits = 0;
    const ms: number[] = [], reason: number[] = [];
    for (const v of vignettes) {
      const gold = goldOf.get(v.condition.toLowerCase()) ?? null;
      const ev = await service.diagnose(textInput(v.text, { reasoner: 'evidence' }));
      const t0 = performance.now();
      // Same text, same retrieval: only the reasoner differs (the evidence answer is what a fallback returns).
      const r = await service.diagnose(textInput(v.text, { reasoner: 'llm' }));
      ms.push(performance.now() - t0);
      reason.push(r.trace.timingsMs.reason ?? 0);
      if (r.degraded) fallbacks++;
      else {
        answered++;
        const candidates = new Set(r.trace.differencesKg.map((t) => t.subjectId ?? t.subject));
        const first = r.differential[0];
        if (first && !candidates.has(first.diseaseId) && !candidates.has(first.disease)) outside++;
      }
      if (gold && r.differential[0]?.diseaseId === gold) llmHits++;
      if (gold && ev.differential[0]?.diseaseId === gold) evHits++;
      log(`local-llm: ${ms.length}/${vignettes.length} (${Math.round(ms.at(-1)!)} ms${r.degraded ? ', fell back' : ''})`);
    }
    const sorted = [...ms].sort((a, b) => a - b);
    const n = vignettes.length;
    return {
      n,
      fallbackRate: fallbacks / n,
      outsideCandidatesRate: answered > 0 ? outside / answered : null,
      top1: { llm: llmHits / n, evidence: evHits / n },
      diagnoseMs: { p50: sorted[Math.floor(n / 2)] ?? 0, max: sorted.at(-1) ?? 0 },
      reasonMs: { p50: [...reason].sort((a, b) => a - b)[Math.floor(n / 2)] ?? 0 },
      usage: sub(local.usage(), u0),
    };
  } finally {
    await graph.close();
  }
}
