import type { Embeddings } from '@langchain/core/embeddings';

/** The embedder as the query side needs it: LangChain `Embeddings` plus the id recorded with a build. */
export interface TextEmbedder {
  id: string;
  embeddings: Pick<Embeddings, 'embedDocuments'>;
}

/** One embedder call for many texts; vectors L2-normalised so inner product = cosine. */
export async function embedBatch(embedder: TextEmbedder, texts: string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const rows = await embedder.embeddings.embedDocuments(texts);
  return rows.map((row) => {
    const v = Float32Array.from(row);
    let n = 0;
    for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
    n = Math.sqrt(n);
    if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
    return v;
  });
}
