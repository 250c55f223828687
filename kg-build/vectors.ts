import type { Embeddings } from '@langchain/core/embeddings';

/** Embedding helpers: LangChain `Embeddings` return number[][]; stages work on L2-normalised Float32Arrays. */

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

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

/** Cosine similarity of arbitrary (not necessarily normalised) vectors; 0 when either is zero. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = Math.sqrt(dot(a, a));
  const nb = Math.sqrt(dot(b, b));
  return na === 0 || nb === 0 ? 0 : dot(a, b) / (na * nb);
}

/** An embedder that can hand back fresh Float32Arrays (HashedEmbedder): no number[] round trip. */
interface Float32Embedder {
  embedVectors(texts: readonly string[]): Float32Array[];
}

const hasFloat32 = (e: unknown): e is Float32Embedder => typeof (e as Partial<Float32Embedder>).embedVectors === 'function';

/**
 * One batch as unit Float32Arrays. With `embedVectors` the vectors are re-normalised in
 * place, bit for bit what toUnit(embedDocuments(...)) gives (float32 -> number -> float32 is exact).
 */
export async function embedUnit(embeddings: Embeddings, texts: readonly string[]): Promise<Float32Array[]> {
  if (hasFloat32(embeddings)) return embeddings.embedVectors(texts).map(unitInPlace);
  return (await embeddings.embedDocuments([...texts])).map(toUnit);
}

/** Embeds `texts` in batches with the injected embedder; returns unit vectors in input order. */
export async function embedAll(embeddings: Embeddings, texts: readonly string[], opts: { batchSize?: number } = {}): Promise<Float32Array[]> {
  const size = opts.batchSize ?? 256;
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += size) out.push(...(await embedUnit(embeddings, texts.slice(i, i + size))));
  return out;
}
