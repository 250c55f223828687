import type { Embeddings } from '@langchain/core/embeddings';

/** The embedder as the query side needs it: LangChain `Embeddings` plus the id recorded with a build. */
export interface TextEmbedder {
  id: string;
  embeddings: Pick<Embeddings, 'embedDocuments'>;
}

/** Embedders that can hand back Float32Arrays directly (the local HashedEmbedder). */
interface Float32Embeddings {
  embedVectors(texts: readonly string[]): Float32Array[];
}

const hasFloat32 = (e: unknown): e is Float32Embeddings => typeof (e as Partial<Float32Embeddings>).embedVectors === 'function';

/**
 * One embedder call for many texts; vectors L2-normalised so inner product = cosine.
 * The Float32Array path skips LangChain's number[] round trip (two copies per vector per
 * query: a measurable share of a query's CPU and garbage); same floats either way.
 */
export async function embedBatch(embedder: TextEmbedder, texts: string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const e = embedder.embeddings;
  const rows = hasFloat32(e) ? e.embedVectors(texts) : (await e.embedDocuments(texts)).map((row) => Float32Array.from(row));
  return rows.map(unitInPlace);
}

function unitInPlace(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}
