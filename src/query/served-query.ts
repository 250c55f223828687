/**
 * The query side as `dxgraph serve` runs it, without the HTTP stack: the reasoners (evidence
 * always; the LLM with the evidence fallback when one is configured), the LLM decomposer, and the
 * served query service over a connected GraphStore. serve (server.ts), each diagnose worker
 * (diagnose-worker.ts), `dxgraph ask` and `dxgraph eval` build their query side here, so the
 * last three load neither express nor the routes (issue 49: 0.2-0.3 s of CPU per process).
 */
import { createEmbedder } from '../adapters/embeddings/index.js';
import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import { DEFAULT_LIMITS, type Config } from '../config.js';
import { loadKnowledgeFilterPrompt } from '../gate/knowledge-filter.js';
import type { Logger } from '../logger.js';
import { EvidenceReasoner } from '../reasoners/evidence-reasoner.js';
import { COMPACT_PROMPT_LIMITS, loadDiagnosePrompt } from '../reasoners/llm-prompt.js';
import { LlmReasoner } from '../reasoners/llm-reasoner.js';
import type { Reasoner } from '../reasoners/reasoner.js';
import { WithFallback } from '../reasoners/with-fallback.js';
import { LlmDecomposer, loadDecomposePrompt } from './decompose-llm.js';
import { openQueryService, type QueryService } from './query-service.js';

/**
 * The chat model's module, imported only where an LLM is configured: it loads LangChain's OpenAI
 * client (hundreds of modules) that an offline server or CLI run never needs (issue 49).
 */
export const chatModels = () => import('../adapters/llm/chat-model.js');

export async function createReasoners(config: Config, logger: Logger): Promise<Reasoner[]> {
  const evidence = new EvidenceReasoner(config.priorWeights ?? {});
  if (!config.llm.enabled) return [evidence];
  const { chatModelLabel, createChatModel } = await chatModels();
  const llm = new LlmReasoner({
    chat: createChatModel(config), prompt: await loadDiagnosePrompt(), timeoutMs: config.llm.timeoutMs, model: chatModelLabel(config.llm),
    // A small local model gives no treatment advice (llm-report-text.ts).
    ...(config.llm.provider === 'local' ? { promptLimits: COMPACT_PROMPT_LIMITS, clinicalAdvice: false, capped: true } : {}),
  });
  return [evidence, new WithFallback(llm, evidence, { timeoutMs: config.llm.timeoutMs, logger })];
}

/** MedRAG eq. 8 by the LLM, constrained to the KG's concepts, when one is configured (else the rule path). */
export async function createDecomposer(config: Config): Promise<LlmDecomposer | null> {
  if (!config.llm.enabled || config.llm.decompose === false) return null;
  return new LlmDecomposer({ chat: (await chatModels()).createChatModel(config), prompt: await loadDecomposePrompt(), timeoutMs: config.llm.timeoutMs });
}

/** The query service `serve` runs, on a connected GraphStore (also what each diagnose worker opens: diagnose-pool.ts). */
export async function openServedQuery(config: Config, logger: Logger, graph: GraphStore): Promise<QueryService> {
  const limits = config.limits ?? DEFAULT_LIMITS;
  // FIND's knowledge filter (LLM only) runs on requests the gate assesses (docs/gate.md).
  const knowledgeFilter = config.llm.enabled ? { chat: (await chatModels()).createChatModel(config), prompt: await loadKnowledgeFilterPrompt(), options: { timeoutMs: config.llm.timeoutMs } } : null;
  return openQueryService({
    graph, dataDir: config.dataDir, embedder: createEmbedder(config), reasoners: await createReasoners(config, logger), ...(config.gate ? { gate: config.gate } : {}), knowledgeFilter, differencesCache: config.query?.differencesCache ?? true, ...(config.query?.recordRetrieval ? { recordRetrieval: config.query.recordRetrieval } : {}),
    limits: { maxFindings: limits.maxFindings, llmBudget: limits.llmBudget }, decomposer: await createDecomposer(config),
  });
}
