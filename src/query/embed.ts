import type { Embeddings } from '@langchain/core/embeddings';
import { embedUnit } from '../adapters/embeddings/unit-vectors.js';

/** The embedder as the query side needs it: LangChain `Embeddings` plus the id recorded with a build. */
export interface TextEmbedder {
  id: string;
  embeddings: Pick<Embeddings, 'embedDocuments'>;
}

/** One embedder call for many texts; vectors L2-normalised so inner product = cosine. */
export async function embedBatch(embedder: TextEmbedder, texts: string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  return embedUnit(embedder.embeddings, texts);
}
