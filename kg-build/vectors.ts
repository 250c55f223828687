import type { Embeddings } from '@langchain/core/embeddings';
import { embedUnit } from '../src/adapters/embeddings/unit-vectors.js';

/** Embedding helpers: LangChain `Embeddings` return number[][]; stages work on L2-normalised Float32Arrays. */
export { embedUnit, toUnit, unitInPlace } from '../src/adapters/embeddings/unit-vectors.js';

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
  for (let i = 0; i < texts.length; i += size) out.push(...(await embedUnit(embeddings, texts.slice(i, i + size))));
  return out;
}
