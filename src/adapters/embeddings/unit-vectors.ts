import type { Embeddings } from '@langchain/core/embeddings';

/**
 * Unit Float32Array embeddings for the build and the query side. LangChain `Embeddings`
 * return number[][]; an embedder that can hand back fresh Float32Arrays (the local
 * HashedEmbedder's `embedVectors`) skips that round trip: two copies per vector, a
 * measurable share of a query's CPU and garbage. Same floats either way (float32 -> number
 * -> float32 is exact).
 */
interface Float32Embedder {
  embedVectors(texts: readonly string[]): Float32Array[];
}

const hasFloat32 = (e: unknown): e is Float32Embedder => typeof (e as Partial<Float32Embedder>).embedVectors === 'function';

export function toUnit(v: ArrayLike<number>): Float32Array {
  return unitInPlace(Float32Array.from(v as ArrayLike<number>));
}

/** toUnit without the copy, for a vector the caller owns (same float results). */
export function unitInPlace(out: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i]! * out[i]!;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i]! /= n;
  return out;
}

/** One embedder call for `texts`, as unit vectors in input order. */
export async function embedUnit(embeddings: Pick<Embeddings, 'embedDocuments'>, texts: readonly string[]): Promise<Float32Array[]> {
  if (hasFloat32(embeddings)) return embeddings.embedVectors(texts).map(unitInPlace);
  return (await embeddings.embedDocuments([...texts])).map(toUnit);
}
