import type { Embeddings } from '@langchain/core/embeddings';

/** Embedding helpers: LangChain `Embeddings` return number[][]; stages work on L2-normalised Float32Arrays. */

export function toUnit(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v as ArrayLike<number>);
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

/** Embeds `texts` in batches with the injected embedder; returns unit vectors in input order. */
export async function embedAll(embeddings: Embeddings, texts: readonly string[], opts: { batchSize?: number } = {}): Promise<Float32Array[]> {
  const size = opts.batchSize ?? 256;
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += size) {
    const batch = await embeddings.embedDocuments(texts.slice(i, i + size));
    for (const v of batch) out.push(toUnit(v));
  }
  return out;
}
