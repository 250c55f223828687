import type { Embeddings } from '@langchain/core/embeddings';
import type { Config } from '../../config.js';
import { HashedEmbedder } from './hashed-embedder.js';
import { OpenAIEmbedder } from './openai-embedder.js';

/** An embedder plus the identity recorded with a build (query time must use the same one). */
export interface NamedEmbedder {
  id: string;
  embeddings: Embeddings;
}

export function createEmbedder(config: Config): NamedEmbedder {
  if (config.embedder.kind === 'openai') {
    const embeddings = new OpenAIEmbedder({ model: config.embedder.model, apiKey: config.llm.apiKey, baseUrl: config.llm.baseUrl });
    return { id: `openai:${config.embedder.model}`, embeddings };
  }
  const hashed = new HashedEmbedder();
  return { id: hashed.id, embeddings: hashed };
}

export { HashedEmbedder };
// Offline WordLlama embedder (issue 17): not the default yet, see docs/embeddings.md.
export { WordLlamaEmbedder } from './wordllama-embedder.js';
export { DEFAULT_WORDLLAMA_DIR } from './wordllama-model.js';
